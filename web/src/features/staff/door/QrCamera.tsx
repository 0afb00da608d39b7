// The camera that reads tickets' QR codes continuously (@zxing/browser: plain JavaScript, no
// WebAssembly, no worker and nothing fetched at run time, so the shop's CSP needs no change;
// decision 0044). Loaded with the door screen only. The back camera is asked for; a phone that
// refuses the camera still has the typed number below it.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type CameraState = 'starting' | 'on' | 'off' | 'denied';

export function QrCamera({ onCode }: { onCode: (text: string) => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [wanted, setWanted] = useState(true);
  const [state, setState] = useState<CameraState>('starting');
  // The latest handler, without restarting the camera when it changes.
  const handler = useRef(onCode);
  useEffect(() => {
    handler.current = onCode;
  }, [onCode]);

  useEffect(() => {
    if (!wanted) return;
    let stopped = false;
    let stop: (() => void) | null = null;
    void (async () => {
      try {
        const { BrowserQRCodeReader } = await import('@zxing/browser');
        if (stopped || !video.current) return;
        const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
        const controls = await reader.decodeFromConstraints(
          { video: { facingMode: 'environment' }, audio: false },
          video.current,
          (result) => {
            if (result) handler.current(result.getText());
          },
        );
        if (stopped) controls.stop();
        else {
          stop = () => controls.stop();
          setState('on');
        }
      } catch {
        if (!stopped) setState('denied');
      }
    })();
    return () => {
      stopped = true;
      stop?.();
    };
  }, [wanted]);

  const toggle = () => {
    setState(wanted ? 'off' : 'starting');
    setWanted(!wanted);
  };

  return (
    <section className="door-camera" aria-labelledby="door-camera-title">
      <h2 id="door-camera-title" className="door__subtitle">
        {t('door.camera.title')}
      </h2>
      <div className="door-camera__frame" data-state={state}>
        <video ref={video} className="door-camera__video" muted playsInline aria-hidden="true" />
        {state !== 'on' && (
          <p className="door-camera__state" role="status">
            {t(`door.camera.${state}`)}
          </p>
        )}
      </div>
      <button type="button" className="staff-button staff-button--quiet" onClick={toggle}>
        {wanted ? t('door.camera.stop') : t('door.camera.start')}
      </button>
    </section>
  );
}
