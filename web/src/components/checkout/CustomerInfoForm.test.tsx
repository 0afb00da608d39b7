import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { makeConfig } from '../../test/fixtures';
import { CustomerInfoForm } from './CustomerInfoForm';

const config = makeConfig();
const withSsn = makeConfig({
  customerInfo: { ...config.customerInfo, ssn: { isIncluded: true, isRequired: true } },
});

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^שם פרטי/), 'דנה');
  await user.type(screen.getByLabelText(/^שם משפחה/), 'לוי');
  await user.type(screen.getByLabelText(/^אימייל/), 'Dana@Example.com');
  await user.type(screen.getByLabelText(/^אימות אימייל/), 'dana@example.com');
  await user.type(screen.getByLabelText(/^טלפון נייד/), '+972 52 431 8876');
  await user.click(screen.getByRole('checkbox', { name: /קראתי ואני מסכים/ }));
}

const submit = () => screen.getByRole('button', { name: 'המשך לתשלום' });

describe('customer details form', () => {
  it('shows the fields the config includes, with the phone left to right', () => {
    render(<CustomerInfoForm config={config} onSubmit={vi.fn()} />);
    expect(screen.getByLabelText(/^עיר/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^תעודת זהות/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^מיקוד/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^טלפון נייד/)).toHaveAttribute('dir', 'ltr');
    expect(screen.getByLabelText(/^טלפון נייד/)).toHaveAttribute('type', 'tel');
    // 3 terms (one of them the mailing consent) and the invoice: no second marketing box.
    expect(screen.getAllByRole('checkbox', { name: /./ })).toHaveLength(4);
  });

  it('says in Hebrew which required fields are missing, tied to each field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CustomerInfoForm config={config} onSubmit={onSubmit} />);
    await user.click(submit());

    const firstName = screen.getByLabelText(/^שם פרטי/);
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect(firstName).toHaveAccessibleDescription('השדה שם פרטי הוא שדה חובה!');
    expect(firstName).toHaveFocus();
    expect(screen.getByLabelText(/^אימייל/)).toHaveAccessibleDescription(
      'השדה אימייל הוא שדה חובה!',
    );
    expect(screen.getByLabelText(/^עיר/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText('יש לאשר את התקנון')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('יש לוודא שכל השדות מולאו כראוי');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the email, its confirmation and the Israeli ID number', async () => {
    const user = userEvent.setup();
    render(<CustomerInfoForm config={withSsn} onSubmit={vi.fn()} />);
    await fillValid(user);
    await user.clear(screen.getByLabelText(/^אימייל/));
    await user.type(screen.getByLabelText(/^אימייל/), 'dana@');
    await user.type(screen.getByLabelText(/^תעודת זהות/), '123456789');
    await user.click(submit());

    expect(screen.getByLabelText(/^אימייל/)).toHaveAccessibleDescription(
      'חייב להיות כתובת אימייל!',
    );
    expect(screen.getByLabelText(/^אימות אימייל/)).toHaveAccessibleDescription(
      'כתובות האימייל אינן תואמות',
    );
    expect(screen.getByLabelText(/^תעודת זהות/)).toHaveAccessibleDescription(
      'מספר תעודת הזהות אינו תקין',
    );

    // Errors follow the typing once the buyer has tried to send.
    await user.clear(screen.getByLabelText(/^תעודת זהות/));
    await user.type(screen.getByLabelText(/^תעודת זהות/), '123456782');
    expect(screen.getByLabelText(/^תעודת זהות/)).not.toHaveAttribute('aria-invalid');
  });

  it('says how long a postal code must be, whichever way it is wrong', async () => {
    const user = userEvent.setup();
    const withPostal = makeConfig({
      customerInfo: { ...config.customerInfo, postalCode: { isIncluded: true, isRequired: false } },
    });
    render(<CustomerInfoForm config={withPostal} onSubmit={vi.fn()} />);
    await fillValid(user);
    await user.type(screen.getByLabelText(/^מיקוד/), '12345678');
    await user.click(submit());
    expect(screen.getByLabelText(/^מיקוד/)).toHaveAccessibleDescription('חייב להיות לכל היותר 7');
    await user.clear(screen.getByLabelText(/^מיקוד/));
    await user.type(screen.getByLabelText(/^מיקוד/), '123456');
    expect(screen.getByLabelText(/^מיקוד/)).toHaveAccessibleDescription('חייב להיות לפחות 7');
  });

  it('says the broken rules again in the language the buyer switches to', async () => {
    const user = userEvent.setup();
    render(<CustomerInfoForm config={config} onSubmit={vi.fn()} />);
    await user.click(submit());
    expect(screen.getByLabelText(/^שם פרטי/)).toHaveAccessibleDescription(
      'השדה שם פרטי הוא שדה חובה!',
    );
    await act(() => i18n.changeLanguage('en'));
    await waitFor(() =>
      expect(screen.getByLabelText(/^First name/)).toHaveAccessibleDescription(
        'The field First name is a required field!',
      ),
    );
  });

  it('asks for marketing consent once, and that box is the mailing opt-in', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CustomerInfoForm config={config} onSubmit={onSubmit} />);
    expect(screen.getAllByRole('checkbox', { name: /עדכונים|הטבות|דיוור|פרסומ/ })).toHaveLength(1);
    await fillValid(user);
    await user.click(screen.getByRole('checkbox', { name: /לקבל עדכונים/ }));
    await user.click(submit());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      acceptedTerms: [1, 2],
      mailingAllowed: true,
    });
  });

  it('links the terms the buyer accepts, to read in a new tab', async () => {
    await i18n.changeLanguage('en');
    render(<CustomerInfoForm config={config} onSubmit={vi.fn()} />);
    const terms = screen.getByRole('link', { name: /Read the terms of use/ });
    expect(terms).toHaveAttribute('href', '/terms?lang=en');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: /privacy policy/ })).toHaveAttribute(
      'href',
      '/privacy?lang=en',
    );
  });

  it('sends the normalised details once they are valid', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CustomerInfoForm config={config} onSubmit={onSubmit} />);
    await fillValid(user);
    await user.click(submit());

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      firstName: 'דנה',
      email: 'dana@example.com',
      mobileNumber: '0524318876',
      acceptedTerms: [1],
      mailingAllowed: false,
      invoiceRequested: false,
    });
  });

  it('asks for the invoice name and number when an invoice is wanted', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<CustomerInfoForm config={config} onSubmit={onSubmit} />);
    await fillValid(user);
    await user.click(screen.getByRole('checkbox', { name: 'אני מעוניין/ת בחשבונית מס' }));
    await user.click(submit());
    expect(screen.getByLabelText(/^שם לחשבונית/)).toHaveAccessibleDescription(
      'השדה שם לחשבונית הוא שדה חובה!',
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("puts the server's formValidation fields back on the form", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockRejectedValue({
      code: 'formValidation',
      params: { fields: { mobileNumber: 'mobile', verifyEmailAddress: 'confirmation' } },
    });
    render(<CustomerInfoForm config={config} onSubmit={onSubmit} />);
    await fillValid(user);
    await user.click(submit());

    const mobile = screen.getByLabelText(/^טלפון נייד/);
    expect(await screen.findByText('מספר הטלפון הנייד אינו תקין')).toBeInTheDocument();
    expect(mobile).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^אימות אימייל/)).toHaveAccessibleDescription(
      'כתובות האימייל אינן תואמות',
    );
  });

  it('shows a server answer handed in by the parent, in English too', async () => {
    await i18n.changeLanguage('en');
    const serverError = {
      error: {
        code: 'formValidation',
        message: 'some details are missing or not valid',
        params: { fields: { firstName: 'required', email: 'email', terms: 'terms' } },
      },
    };
    render(<CustomerInfoForm config={config} onSubmit={vi.fn()} serverError={serverError} />);
    expect(screen.getByLabelText(/^First name/)).toHaveAccessibleDescription(
      'The field First name is a required field!',
    );
    expect(screen.getByLabelText(/^Email/)).toHaveAccessibleDescription(
      'Must be an email address!',
    );
    const terms = screen.getByRole('group', { name: 'Terms' });
    expect(within(terms).getByText('You must accept the terms')).toBeInTheDocument();
    expect(
      within(terms).getByRole('checkbox', { name: /Kupa Cinemas terms of use/ }),
    ).toHaveAttribute('aria-invalid', 'true');
  });
});
