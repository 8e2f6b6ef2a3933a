// "Print" buttons: <button data-print> opens the browser's print dialog
// (the page's print styles leave the navigation out).

for (const button of document.querySelectorAll("button[data-print]")) {
  button.addEventListener("click", () => window.print());
}
