// The game page: let htmx show the server's answer to a refused move (400 with the
// engine's message, 409 with the fresh board) instead of treating it as a failure.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if (status === 400 || status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
