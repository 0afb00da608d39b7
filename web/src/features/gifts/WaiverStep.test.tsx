import { useReducer } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { ApiError } from '../../lib/api/client';
import type { VoucherClass } from '../../lib/api/gifts';
import { WaiverStep } from './WaiverStep';
import {
  MAX_CHILDREN,
  initialWaiver,
  serverProblems,
  waiverReducer,
  type CartWaiver,
} from './waiver';

const kidsClub = {
  id: 5,
  superClassId: 4,
  businessId: 1,
  name: 'מועדון הסרטים לילדים',
  nameEn: "Kids' film club",
  description: '',
  descriptionEn: '',
  ticketId: 113,
  prices: [{ id: 51, price: 12000 }],
  benefits: [],
  validDays: 180,
  boxOfficeOnly: false,
  terms: '',
  termsEn: '',
  sort: 5,
  waiver: { minAge: 4, maxAge: 12, text: 'הסכמת הורה', textEn: "A parent's consent" },
} as unknown as VoucherClass;

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEEAQBf5cNLAAAAAElFTkSuQmCC';

function Harness({
  submit,
  onDone,
}: {
  submit: (w: CartWaiver) => Promise<unknown>;
  onDone: () => void;
}) {
  const [state, dispatch] = useReducer(waiverReducer, undefined, initialWaiver);
  return (
    <WaiverStep
      classes={[kidsClub]}
      state={state}
      dispatch={dispatch}
      summary={<p>1 × Kids&apos; film club</p>}
      onBack={() => undefined}
      submit={submit}
      onDone={onDone}
    />
  );
}

function setup(submit = vi.fn(async (_w: CartWaiver) => ({}))) {
  const onDone = vi.fn();
  render(<Harness submit={submit} onDone={onDone} />);
  return { submit, onDone, user: userEvent.setup() };
}

/** A stroke on the canvas, as a mouse, a finger or a pen sends it. */
function draw() {
  const canvas = screen.getByRole('img', { name: /Signature box/ });
  fireEvent.pointerDown(canvas, { pointerId: 1, clientX: 10, clientY: 10 });
  fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 60, clientY: 30 });
  fireEvent.pointerUp(canvas, { pointerId: 1, clientX: 60, clientY: 30 });
}

async function fillChild(
  user: ReturnType<typeof userEvent.setup>,
  n: number,
  name: string,
  birth: string,
) {
  const group = screen.getByRole('group', { name: `Child ${n}` });
  await user.clear(within(group).getByLabelText("Child's full name"));
  await user.type(within(group).getByLabelText("Child's full name"), name);
  fireEvent.change(within(group).getByLabelText('Date of birth'), { target: { value: birth } });
}

describe('the waiver step', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    // jsdom draws nothing: the canvas answers no context and a fixed PNG (Chromium draws, e2e).
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(PNG);
  });
  afterEach(() => vi.restoreAllMocks());

  it('adds and removes children, never the last one', async () => {
    const { user } = setup();
    expect(screen.getAllByRole('group', { name: /^Child \d$/ })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    await fillChild(user, 1, 'Yael', '2020-05-05');
    // A field's problem goes once it is edited.
    expect(screen.queryByText('The date of birth cannot be in the future')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add child' }));
    await fillChild(user, 2, 'Dan', '2022-01-01');
    expect(screen.getAllByRole('group', { name: /^Child \d$/ })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove Yael' }));
    const left = screen.getAllByRole('group', { name: /^Child \d$/ });
    expect(left).toHaveLength(1);
    expect(within(left[0]).getByLabelText("Child's full name")).toHaveValue('Dan');
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('takes a drawn signature, clears it, and will not go on unsigned', async () => {
    const { user, submit } = setup();
    await fillChild(user, 1, 'Yael', '2020-05-05');
    await user.type(screen.getByLabelText("Parent's or guardian's full name"), 'Michal');
    const canvas = screen.getByRole('img', { name: 'Signature box, empty' });
    expect(canvas).toHaveAccessibleDescription(/mouse, a finger or a pen/);
    draw();
    expect(await screen.findByRole('img', { name: 'Signature box, signed' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Signed.');
    await user.click(screen.getByRole('button', { name: 'Clear signature' }));
    expect(screen.getByRole('img', { name: 'Signature box, empty' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(screen.getByText('Please sign in the box')).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
    // The keyboard's way: the typed name, written on the same canvas.
    await user.click(screen.getByRole('button', { name: 'Sign with my typed name' }));
    expect(screen.getByRole('img', { name: 'Signature box, signed' })).toBeInTheDocument();
    expect(screen.queryByText('Please sign in the box')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(submit).toHaveBeenCalledWith({
      children: [{ name: 'Yael', birthDate: '2020-05-05' }],
      signature: PNG,
      signerName: 'Michal',
    });
  });

  it('shows what is missing, and the server refusing a child by age at that child', async () => {
    const refuse = vi.fn(async (w: CartWaiver) => {
      if (w.children.some((c) => c.birthDate < '2018-01-01')) {
        throw new ApiError(422, 'formValidation', 'This voucher is for ages 4–12; Omer is 13.', {
          fields: ['waiver.children[1].birthDate'],
          reason: 'waiverAge',
          child: 'Omer',
          childIndex: 1,
          age: 13,
          minAge: 4,
          maxAge: 12,
        });
      }
      return {};
    });
    const { user, onDone } = setup(refuse);
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(screen.getAllByText('Please fill this in')).toHaveLength(3);
    expect(screen.getByLabelText("Child's full name")).toHaveAttribute('aria-invalid', 'true');
    await fillChild(user, 1, 'Yael', '2099-01-01');
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(screen.getByText('The date of birth cannot be in the future')).toBeInTheDocument();
    await fillChild(user, 1, 'Yael', '2020-05-05');
    // A field's problem goes once it is edited.
    expect(screen.queryByText('The date of birth cannot be in the future')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add child' }));
    await fillChild(user, 2, 'Omer', '2017-01-01');
    await user.type(screen.getByLabelText("Parent's or guardian's full name"), 'Michal');
    draw();
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This voucher is for ages 4–12; Omer is 13.',
    );
    const omer = within(screen.getByRole('group', { name: 'Child 2' })).getByLabelText(
      'Date of birth',
    );
    expect(omer).toHaveAttribute('aria-invalid', 'true');
    expect(omer).toHaveAccessibleDescription('This voucher is for ages 4–12; Omer is 13.');
    expect(onDone).not.toHaveBeenCalled();
    await fillChild(user, 2, 'Omer', '2019-01-01');
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledOnce());
    expect(refuse).toHaveBeenLastCalledWith(
      expect.objectContaining({
        children: [
          { name: 'Yael', birthDate: '2020-05-05' },
          { name: 'Omer', birthDate: '2019-01-01' },
        ],
      }),
    );
  });

  it('shows the Hebrew words of an age refusal', async () => {
    await i18n.changeLanguage('he');
    expect(i18n.t('waiver.errors.age', { child: 'נועה', age: 2, minAge: 4, maxAge: 12 })).toBe(
      'השובר מיועד לילדים מגיל 4 עד גיל 12; נועה בן/בת 2.',
    );
  });
});

describe('the waiver state', () => {
  it('holds one to ten children', () => {
    let s = initialWaiver();
    s = waiverReducer(s, { type: 'removeChild', key: s.children[0].key });
    expect(s.children).toHaveLength(1);
    for (let i = 0; i < 20; i++) s = waiverReducer(s, { type: 'addChild' });
    expect(s.children).toHaveLength(MAX_CHILDREN);
    expect(new Set(s.children.map((c) => c.key)).size).toBe(MAX_CHILDREN);
  });

  it('reads only the waiver fields of a refusal', () => {
    expect(serverProblems(new ApiError(422, 'formValidation', '', { fields: ['ssn'] }))).toEqual(
      {},
    );
    expect(
      serverProblems(new ApiError(422, 'formValidation', '', { fields: ['waiver.signature'] })),
    ).toEqual({ 'waiver.signature': { kind: 'invalid' } });
    expect(serverProblems(new ApiError(401, 'loginError', ''))).toEqual({});
  });
});
