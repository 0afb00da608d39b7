import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { PaymentMethods } from './PaymentMethods';
import type { OfferedMethod } from './methods';

function Harness() {
  const [method, setMethod] = useState<OfferedMethod>('card');
  const [payments, setPayments] = useState(1);
  return (
    <PaymentMethods
      value={method}
      onChange={setMethod}
      numberOfPayments={payments}
      onNumberOfPaymentsChange={setPayments}
    />
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('payment methods', () => {
  it('offers installments for cards only', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const group = screen.getByRole('group', { name: 'אמצעי תשלום' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'כרטיס אשראי' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await user.selectOptions(screen.getByLabelText('מספר תשלומים'), '3');
    expect(screen.getByLabelText('מספר תשלומים')).toHaveValue('3');

    await user.click(screen.getByRole('button', { name: 'BLIK' }));
    expect(screen.getByRole('button', { name: 'BLIK' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByLabelText('מספר תשלומים')).not.toBeInTheDocument();
  });
});
