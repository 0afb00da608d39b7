import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/noto-sans-hebrew/400.css';
import '@fontsource/noto-sans-hebrew/600.css';
import '@fontsource/noto-sans-hebrew/700.css';
import '@fontsource/noto-sans-hebrew/800.css';
import '@fontsource/noto-sans/400.css';
import '@fontsource/noto-sans/600.css';
import '@fontsource/noto-sans/700.css';
import '@fontsource/noto-sans/800.css';
import './styles/global.css';
import { App } from './app/App';
import { LANDING_PAGES } from './app/pages';
import { installErrorReporting } from './lib/clientErrors';
import i18n from './lib/i18n';
import { watchIdle } from './lib/idle';

installErrorReporting(
  // The page's language as asked (its catalogue may still be loading); the server keeps only a
  // language it knows.
  () => new URLSearchParams(window.location.search).get('lang') ?? i18n.language,
  watchIdle(() => undefined),
);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');

// After the browser has painted the bar of index.html, so the first paint never waits for the
// app's work however busy the phone is; and as a transition, which React renders in slices,
// yielding between them, so the main thread is never held for long (decision 0056).
const root = createRoot(container);
function render() {
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
function start() {
  // A tab opened in the background paints nothing (and runs no animation frames) until shown.
  if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(render, 0));
  else render();
}
// The server wrote the page's first screen into #root (decision 0071): the app replaces it with
// its own once it can draw the page itself, the page's module in, never a spinner in between.
const firstScreen = container.dataset.firstScreen;
const landing =
  firstScreen === 'index' || firstScreen === 'order' ? LANDING_PAGES[firstScreen] : null;
// And once the screen's first posters are decoded (or after 3 s): they are its largest paint, and
// the app's own copies of them must come after it, not in its place.
function firstPosters(screen: HTMLElement): Promise<unknown> {
  const posters = Array.from(
    screen.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]'),
  );
  const decoded = Promise.all(posters.map((img) => img.decode().catch(() => undefined)));
  return Promise.race([decoded, new Promise((resolve) => setTimeout(resolve, 3000))]);
}
if (landing) void Promise.all([landing.preload(), firstPosters(container)]).then(start);
else start();
