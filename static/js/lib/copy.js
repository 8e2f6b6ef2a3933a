// "Copy" buttons: <button data-copy="id"> copies that field's value and says
// so on the button for a moment. Without the clipboard (plain http on
// another host) the field is selected, ready for Ctrl+C.

for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  const label = button.textContent;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch {
      field.select();
      button.textContent = "Press Ctrl+C";
    }
    setTimeout(() => (button.textContent = label), 2000);
  });
}
