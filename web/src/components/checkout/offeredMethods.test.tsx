import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { ConfigContext, normalizeConfig } from '../../lib/config';
import { PaymentMethods } from './PaymentMethods';
import { useOfferedMethods } from './methods';
import { makeConfig } from '../../test/fixtures';

function Methods({ currency }: { currency: string }) {
  const methods = useOfferedMethods(currency);
  return (
    <PaymentMethods
      value="card"
      onChange={() => {}}
      numberOfPayments={1}
      onNumberOfPaymentsChange={() => {}}
      methods={methods}
    />
  );
}

// GET /config of a chain with PayU configured (issue 20): PayU and Blik in złoty only.
const withPayu = normalizeConfig(
  makeConfig({
    paymentMethods: [
      { method: 'card' },
      { method: 'paypal' },
      { method: 'blik', currencies: ['PLN'] },
      { method: 'payu', currencies: ['PLN'] },
    ],
  }),
);

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('the methods the payment step offers', () => {
  it('are those the server takes in the order currency', () => {
    const { unmount } = render(
      <ConfigContext value={withPayu}>
        <Methods currency="ILS" />
      </ConfigContext>,
    );
    expect(screen.getByRole('button', { name: 'כרטיס אשראי' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'BLIK' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button')).toHaveLength(2);
    unmount();
    render(
      <ConfigContext value={withPayu}>
        <Methods currency="PLN" />
      </ConfigContext>,
    );
    expect(screen.getByRole('button', { name: 'BLIK' })).toBeInTheDocument();
    expect(screen.getAllByRole('button')).toHaveLength(4);
  });
});
