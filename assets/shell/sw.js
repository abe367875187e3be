// gpuplan's service worker: the page works offline once it has been opened (a reload on a
// train shows the calculator, not the browser's offline page). Stale-while-revalidate on the
// site's own files: answer from the cache at once, fetch a fresh copy alongside and keep it
// for the next visit (a new deploy shows on the second load). The page's files are cached at
// install; the sources bundle and the probe modules when first used. Nothing of another
// origin is touched (the page requests only its own files).
var CACHE = 'gpuplan-site-1';
var START = ['./', 'index.html', 'index.js', 'index.wasm', 'index.deferred.wasm'];

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(START); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf('gpuplan-site-') === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    // The hash never reaches the server; a query (?embed=...) does not change the file.
    return cache.match(request, { ignoreSearch: true }).then(function (cached) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok && response.type === 'basic') cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        fresh.catch(function () {});  // offline: the cached copy stands
        return cached;
      }
      return fresh;
    });
  }));
});
