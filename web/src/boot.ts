// The page's entry (decision 0071): the app's code is evaluated only after the browser has painted
// the first screen the server wrote, so that paint, the landing pages' largest, never waits for
// the app's scripts to be evaluated, however early they arrive. The app's chunks are fetched
// beside the page (modulepreload) and only run here.
function start() {
  void import('./main');
}

// A tab opened in the background paints nothing (and runs no animation frames) until shown.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
