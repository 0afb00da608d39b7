// The landing pages' loader (decision 0076). On what's on and the order page the server wrote the
// first screen into the HTML (decision 0071); this runs the app only once that screen is painted
// with its pictures (the first posters, the hall), so the browser paints it before it spends a
// slow phone's network and main thread on the app's scripts, fetched and run only then.
// The app then takes the screen over as before. A classic script: the site's policy allows no
// inline script, and `document.currentScript` names the entry.
(function () {
  var me = document.currentScript;
  var entry = me && me.getAttribute('data-entry');
  if (!entry) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    // The app's modules, all fetched side by side (the server kept them here until now).
    var preloads = document.getElementById('kupa-app-preloads');
    if (preloads) document.head.appendChild(preloads.content);
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = 'anonymous';
    script.src = entry;
    document.head.appendChild(script);
  }
  // The screen's pictures (the first posters, the hall) are marked for the browser's element
  // timing: it reports one once it is shown, not only drawn. Where it does not, the frame after
  // they are decoded.
  var pictures = Array.prototype.slice
    .call(document.querySelectorAll('#root img[elementtiming="first-screen"]'))
    .filter(function (img) {
      // Only the ones in the window: one below the fold is never shown, so never reported.
      var r = img.getBoundingClientRect();
      return (
        r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth
      );
    });
  function whenShown() {
    // A tab opened in the background paints nothing (and runs no animation frames) until shown.
    if (document.visibilityState !== 'visible' || pictures.length === 0) return start();
    var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (types.indexOf('element') < 0) {
      Promise.all(
        pictures.map(function (img) {
          return img.decode().catch(function () {});
        }),
      ).then(function () {
        requestAnimationFrame(function () {
          setTimeout(start, 0);
        });
      });
      return;
    }
    // Every one in the window, not the first: on a phone the next card's poster may peep in at
    // the bottom and be shown first, and the first card's, shown after it, is the largest paint.
    var waiting = pictures.slice();
    var observer = new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (entry) {
        var i = waiting.indexOf(entry.element);
        if (i >= 0) waiting.splice(i, 1);
      });
      if (waiting.length === 0) {
        observer.disconnect();
        setTimeout(start, 0);
      }
    });
    observer.observe({ type: 'element', buffered: true });
  }
  whenShown();
  // A picture that never comes must not keep the app away.
  setTimeout(start, 3000);
})();
