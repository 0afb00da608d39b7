import { useRef, useState, type Dispatch, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SignaturePad } from './SignaturePad';
import {
  MAX_CHILDREN,
  formProblems,
  serverProblems,
  toCartWaiver,
  type CartWaiver,
  type WaiverAction,
  type WaiverErrors,
  type WaiverProblem,
  type WaiverState,
} from './waiver';
import { errorMessage } from '../../lib/apiErrors';
import { localizedName } from '../../lib/localized';
import type { VoucherClass } from '../../lib/api/gifts';
import { GiftSummary } from '../../components/checkout/GiftSummary';
import '../../components/checkout/CustomerInfoForm.css';
import './WaiverStep.css';

/** Today in Jerusalem (YYYY-MM-DD): a birth date after it is refused before posting. */
function today(): string {
  return new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Jerusalem' });
}

/**
 * The vouchers flow's waiver step (decision 0041), after the auth step and before the products,
 * when a chosen voucher asks for one: the children who will use it (name and birth date, "add
 * child", remove), the waiver's text, the signer's name and a signature drawn on a canvas. "Continue"
 * posts the cart with the waiver, and the server judges it (a child outside the voucher's ages
 * is refused by name); its refusal is shown at the field it names.
 */
export function WaiverStep({
  classes,
  state,
  dispatch,
  summary,
  onBack,
  submit,
  onDone,
}: {
  /** The chosen classes that ask for a waiver (at least one). */
  classes: VoucherClass[];
  state: WaiverState;
  dispatch: Dispatch<WaiverAction>;
  summary: ReactNode;
  onBack: () => void;
  /** Posts the cart with the waiver; rejects with the server's refusal. */
  submit: (waiver: CartWaiver) => Promise<unknown>;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [errors, setErrors] = useState<WaiverErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const ages = classes.map((c) => c.waiver).filter((w): w is NonNullable<typeof w> => w != null);
  const minAge = Math.max(...ages.map((w) => w.minAge));
  const maxAge = Math.min(...ages.map((w) => w.maxAge));

  const words = (p: WaiverProblem | undefined, field: string): string | null => {
    if (!p) return null;
    switch (p.kind) {
      case 'age':
        return t('waiver.errors.age', {
          child: p.child,
          age: p.age,
          minAge: p.minAge,
          maxAge: p.maxAge,
        });
      case 'required':
        return field === 'waiver.signature'
          ? t('waiver.errors.signature')
          : t('waiver.errors.required');
      default:
        return t(`waiver.errors.${p.kind}`);
    }
  };

  /** An action that changes `field`: its problem is gone until the next "continue". */
  const edit = (field: string, action: WaiverAction) => {
    dispatch(action);
    setErrors((e) => {
      if (!(field in e)) return e;
      const rest = { ...e };
      delete rest[field];
      return rest;
    });
  };

  const focusFirstInvalid = () =>
    requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const problems = formProblems(state, today());
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstInvalid();
      return;
    }
    setSending(true);
    try {
      await submit(toCartWaiver(state));
      onDone();
    } catch (err) {
      const fromServer = serverProblems(err);
      if (Object.keys(fromServer).length > 0) {
        setErrors(fromServer);
        focusFirstInvalid();
      } else {
        setFailure(err);
      }
    } finally {
      setSending(false);
    }
  }

  const ageProblem = Object.values(errors).find((p) => p.kind === 'age');
  const field = (name: string) => {
    const message = words(errors[name], name);
    const id = `waiver-${name.replace(/[^a-zA-Z0-9]+/g, '-')}`;
    return { id, errorId: `${id}-error`, message };
  };

  const signer = field('waiver.signerName');
  const signature = field('waiver.signature');
  return (
    <div className="gift-checkout">
      <GiftSummary summary={summary} onBack={onBack} />
      <section className="gift-auth waiver" aria-labelledby="waiver-title">
        <h2 id="waiver-title" className="gift-checkout__heading">
          {t('waiver.title')}
        </h2>
        <p className="gift-checkout__hint">{t('waiver.lead', { minAge, maxAge })}</p>
        <form ref={form} className="waiver__form" noValidate onSubmit={(e) => void onSubmit(e)}>
          <fieldset className="checkout-form__group">
            <legend>{t('waiver.children.legend')}</legend>
            {state.children.map((c, i) => {
              const name = field(`waiver.children[${i}].name`);
              const birth = field(`waiver.children[${i}].birthDate`);
              return (
                <fieldset key={c.key} className="waiver-child">
                  <legend>{t('waiver.children.child', { n: i + 1 })}</legend>
                  <div className="checkout-form__grid">
                    <div className="checkout-field">
                      <label className="checkout-field__label" htmlFor={name.id}>
                        {t('waiver.children.name')}
                      </label>
                      <input
                        id={name.id}
                        className="checkout-field__input"
                        value={c.name}
                        maxLength={100}
                        autoComplete="off"
                        aria-invalid={name.message ? true : undefined}
                        aria-describedby={name.message ? name.errorId : undefined}
                        onChange={(e) =>
                          edit(`waiver.children[${i}].name`, {
                            type: 'child',
                            key: c.key,
                            field: 'name',
                            value: e.target.value,
                          })
                        }
                      />
                      {name.message && (
                        <p className="checkout-field__error" id={name.errorId}>
                          {name.message}
                        </p>
                      )}
                    </div>
                    <div className="checkout-field">
                      <label className="checkout-field__label" htmlFor={birth.id}>
                        {t('waiver.children.birthDate')}
                      </label>
                      <input
                        id={birth.id}
                        className="checkout-field__input"
                        type="date"
                        dir="ltr"
                        max={today()}
                        value={c.birthDate}
                        aria-invalid={birth.message ? true : undefined}
                        aria-describedby={birth.message ? birth.errorId : undefined}
                        onChange={(e) =>
                          edit(`waiver.children[${i}].birthDate`, {
                            type: 'child',
                            key: c.key,
                            field: 'birthDate',
                            value: e.target.value,
                          })
                        }
                      />
                      {birth.message && (
                        <p className="checkout-field__error" id={birth.errorId}>
                          {birth.message}
                        </p>
                      )}
                    </div>
                  </div>
                  {state.children.length > 1 && (
                    <button
                      type="button"
                      className="button button--ghost waiver-child__remove"
                      onClick={() => {
                        // The children after it move up: their problems' places no longer fit.
                        dispatch({ type: 'removeChild', key: c.key });
                        setErrors({});
                      }}
                    >
                      {t('waiver.children.remove', {
                        name: c.name.trim() || t('waiver.children.child', { n: i + 1 }),
                      })}
                    </button>
                  )}
                </fieldset>
              );
            })}
            <button
              type="button"
              className="button button--ghost"
              disabled={state.children.length >= MAX_CHILDREN}
              onClick={() => dispatch({ type: 'addChild' })}
            >
              {t('waiver.children.add')}
            </button>
          </fieldset>

          <section className="waiver__text" aria-labelledby="waiver-text-title">
            <h3 id="waiver-text-title" className="waiver__text-title">
              {t('waiver.textTitle')}
            </h3>
            {classes.map((c) =>
              c.waiver ? (
                <p key={c.id}>{localizedName(lang, c.waiver.text, c.waiver.textEn)}</p>
              ) : null,
            )}
          </section>

          <div className="checkout-field">
            <label className="checkout-field__label" htmlFor={signer.id}>
              {t('waiver.signerName')}
            </label>
            <input
              id={signer.id}
              className="checkout-field__input"
              value={state.signerName}
              maxLength={100}
              autoComplete="name"
              aria-invalid={signer.message ? true : undefined}
              aria-describedby={signer.message ? signer.errorId : undefined}
              onChange={(e) =>
                edit('waiver.signerName', { type: 'signerName', value: e.target.value })
              }
            />
            {signer.message && (
              <p className="checkout-field__error" id={signer.errorId}>
                {signer.message}
              </p>
            )}
          </div>

          <div className="checkout-field">
            <span className="checkout-field__label" id="waiver-signature-label">
              {t('waiver.signature.label')}
            </span>
            <p className="checkout-field__hint" id="waiver-signature-hint">
              {t('waiver.signature.instructions')}
            </p>
            <SignaturePad
              id={signature.id}
              signerName={state.signerName}
              value={state.signature}
              invalid={signature.message != null}
              describedBy={
                signature.message
                  ? `waiver-signature-hint ${signature.errorId}`
                  : 'waiver-signature-hint'
              }
              onChange={(value) => edit('waiver.signature', { type: 'signature', value })}
            />
            <p className="waiver-signature__status" role="status">
              {state.signature ? t('waiver.signature.done') : ''}
            </p>
            {signature.message && (
              <p className="checkout-field__error" id={signature.errorId}>
                {signature.message}
              </p>
            )}
          </div>

          {ageProblem && (
            <p className="gift-checkout__error" role="alert">
              {words(ageProblem, '')}
            </p>
          )}
          {failure !== null && (
            <p className="gift-checkout__error" role="alert">
              {errorMessage(t, failure)}
            </p>
          )}
          <div className="gift-auth__actions">
            <button type="submit" className="button button--primary" disabled={sending}>
              {t('waiver.continue')}
            </button>
            <button type="button" className="button button--ghost" onClick={onBack}>
              {t('waiver.back')}
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
