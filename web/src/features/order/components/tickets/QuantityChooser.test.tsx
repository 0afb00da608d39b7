import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Ticket } from '../../../../lib/api/types';
import i18n from '../../../../lib/i18n';
import { makeTicket } from '../../../../test/fixtures';
import { TicketLabel } from './QuantityChooser';

const base: Ticket = makeTicket(106, {
  name: 'חבר מועדון – מימוש נקודות',
  nameEn: 'Club member – redeem points',
  price: 0,
  oldPrice: 3200,
  serviceCharge: 500,
  pricePolicyId: 9106,
  memberOnly: true,
  loyaltyPointsPrice: 1320,
  isLoyaltyPointsRedemption: true,
});

describe('a points ticket', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('he');
  });

  it('says the points it costs beside its money', async () => {
    render(<TicketLabel ticket={base} />);
    expect(screen.getByText('ועוד 1,320 נקודות')).toBeInTheDocument();
    await i18n.changeLanguage('en');
    expect(await screen.findByText('plus 1,320 points')).toBeInTheDocument();
  });

  it('says no points on a money ticket', () => {
    render(
      <TicketLabel
        ticket={{ ...base, loyaltyPointsPrice: null, isLoyaltyPointsRedemption: false }}
      />,
    );
    expect(screen.queryByText(/^ועוד .* נקודות$/)).not.toBeInTheDocument();
  });
});

describe('a pass ticket', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('he');
  });

  it('says what it takes from the film pass, and a money ticket says nothing of it', async () => {
    const pass: Ticket = {
      ...base,
      id: 117,
      ticketId: 117,
      name: 'כרטיסייה – מהיתרה',
      nameEn: 'Film pass – from your balance',
      oldPrice: 3500,
      loyaltyPointsPrice: null,
      isLoyaltyPointsRedemption: false,
      memberBalancePrice: 3500,
    };
    const { unmount } = render(<TicketLabel ticket={pass} />);
    expect(screen.getByText(/^מיתרת הכרטיסייה: /)).toHaveTextContent('35.00');
    expect(screen.queryByText(/נקודות/)).not.toBeInTheDocument();
    await i18n.changeLanguage('en');
    expect(await screen.findByText(/^from your film pass: /)).toHaveTextContent('35.00');
    unmount();
    render(<TicketLabel ticket={{ ...pass, memberBalancePrice: null }} />);
    expect(screen.queryByText(/^from your film pass/)).not.toBeInTheDocument();
  });
});
