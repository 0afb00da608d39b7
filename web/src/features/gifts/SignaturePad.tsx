import { useEffect, useRef, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** The canvas's own pixels: a drawn signature of this size is 5–20 KB of PNG. */
const WIDTH = 600;
const HEIGHT = 200;

/**
 * A signature drawn on a canvas with a mouse, a finger or a pen (pointer events), with "clear
 * signature", and for a keyboard (decision 0041) "sign with my typed name", which writes the
 * signer's name on the same canvas: the canvas stays, and what is stored is always its PNG.
 * `onChange` gets the PNG data URL after each stroke, or null once cleared.
 */
export function SignaturePad({
  id,
  signerName,
  value,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  signerName: string;
  /** The signature kept (a PNG data URL), drawn again when the step is shown again. */
  value: string | null;
  invalid: boolean;
  describedBy: string;
  onChange: (dataUrl: string | null) => void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  const context = () => {
    const ctx = canvas.current?.getContext('2d') ?? null;
    if (ctx) {
      ctx.lineWidth = 3;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#1a1a2e';
      ctx.fillStyle = '#1a1a2e';
    }
    return ctx;
  };

  const wipe = () => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    // White, not transparent: the staff's screen shows it on any background.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
  };

  // Blank on mount, with the signature kept in memory drawn again (a return to the step).
  const initial = useRef(value);
  useEffect(() => {
    wipe();
    const ctx = canvas.current?.getContext('2d');
    if (!ctx || !initial.current) return;
    const img = new Image();
    img.onload = () => ctx.drawImage(img, 0, 0, WIDTH, HEIGHT);
    img.src = initial.current;
  }, []);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const x = box.width > 0 ? ((e.clientX - box.left) / box.width) * WIDTH : 0;
    const y = box.height > 0 ? ((e.clientY - box.top) / box.height) * HEIGHT : 0;
    return { x, y };
  };

  const emit = () => {
    const c = canvas.current;
    if (!c) return;
    try {
      onChange(c.toDataURL('image/png'));
    } catch {
      onChange(null);
    }
  };

  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const p = point(e);
    last.current = p;
    const ctx = context();
    if (ctx) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, 1.5, 0, Math.PI * 2);
      ctx.fill();
    }
  };

  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!last.current) return;
    const p = point(e);
    const ctx = context();
    if (ctx) {
      ctx.beginPath();
      ctx.moveTo(last.current.x, last.current.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
    }
    last.current = p;
  };

  const up = () => {
    if (!last.current) return;
    last.current = null;
    emit();
  };

  const clear = () => {
    wipe();
    onChange(null);
  };

  const typed = () => {
    const name = signerName.trim();
    if (!name) return;
    wipe();
    const ctx = context();
    if (ctx) {
      ctx.font = 'italic 56px "Noto Serif Hebrew", "Noto Serif", Georgia, serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(name, WIDTH / 2, HEIGHT / 2, WIDTH - 40);
    }
    emit();
  };

  return (
    <div className="waiver-signature">
      <canvas
        ref={canvas}
        id={id}
        className="waiver-signature__canvas"
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={value ? t('waiver.signature.canvasSigned') : t('waiver.signature.canvasEmpty')}
        aria-describedby={describedBy}
        data-invalid={invalid ? 'true' : undefined}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        onPointerLeave={up}
      />
      <div className="waiver-signature__actions">
        <button type="button" className="button button--ghost" onClick={clear}>
          {t('waiver.signature.clear')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={typed}
          disabled={!signerName.trim()}
        >
          {t('waiver.signature.typed')}
        </button>
      </div>
    </div>
  );
}
