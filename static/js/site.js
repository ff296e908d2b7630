// Forms that ask before they send (data-confirm="question"): a submit the person cancels
// goes nowhere. An attribute and this listener rather than an inline onsubmit, which the
// site's Content-Security-Policy does not run; without JavaScript the form just sends.
document.addEventListener("submit", (event) => {
  const question = event.target.getAttribute && event.target.getAttribute("data-confirm");
  if (question && !window.confirm(question)) event.preventDefault();
}, true);
