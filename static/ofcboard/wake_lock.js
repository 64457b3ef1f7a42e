// Keeps the phone's screen on while a night runs, where the browser allows it (HTTPS),
// with a switch to turn that off; the choice is remembered on the phone.
(function () {
  "use strict";

  const box = document.querySelector("[data-wake-lock]");
  const toggle = box && box.querySelector("[data-wake-lock-switch]");
  if (!toggle || !("wakeLock" in navigator) || !window.isSecureContext) return;
  const STORE = "ofcboard.keepScreenOn";
  let lock = null;

  async function hold() {
    if (!toggle.checked || document.visibilityState !== "visible" || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
    } catch (error) {
      lock = null; // refused (battery saver, no permission): the screen sleeps as usual
    }
  }

  function release() {
    if (lock) lock.release();
    lock = null;
  }

  toggle.checked = localStorage.getItem(STORE) !== "off";
  box.hidden = false;
  toggle.addEventListener("change", () => {
    localStorage.setItem(STORE, toggle.checked ? "on" : "off");
    if (toggle.checked) hold(); else release();
  });
  // The browser lets go of the lock whenever the page is hidden; take it again on return.
  document.addEventListener("visibilitychange", hold);
  hold();
})();
