// A list that follows its newest entry, as a chat does: it opens at the
// bottom, stays there as entries arrive while the reader is there, and when
// the reader has scrolled up it keeps their place and counts what arrived
// on a "N new" button that jumps down. A list in a hidden tab or a folded
// bottom sheet cannot scroll; the ResizeObserver sees it come into sight
// (or change size) and puts it back at the bottom if it was there.

const NEAR_PX = 24; // this close to the bottom still reads as "at the bottom"

export class PinnedScroll {
  /** `scroller`: the element that scrolls; `jump`: the "N new" button. */
  constructor(scroller, jump) {
    this.scroller = scroller;
    this.jump = jump;
    this.pinned = true;
    this.unseen = 0;
    scroller.addEventListener("scroll", () => this.scrolled(), { passive: true });
    jump.addEventListener("click", () => this.toEnd());
    new ResizeObserver(() => {
      if (this.pinned) this.toEnd();
    }).observe(scroller);
  }

  scrolled() {
    const s = this.scroller;
    if (s.clientHeight === 0) return; // hidden: nothing the reader did
    this.pinned = s.scrollHeight - s.scrollTop - s.clientHeight <= NEAR_PX;
    if (this.pinned) this.count(0);
  }

  /** An entry was appended: follow it, or count it for the reader above. */
  added() {
    if (this.pinned) this.toEnd();
    else this.count(this.unseen + 1);
  }

  /** Back to the newest entry (a new snapshot, the button). */
  toEnd() {
    this.pinned = true;
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.count(0);
  }

  count(n) {
    this.unseen = n;
    this.jump.hidden = n === 0;
    this.jump.textContent = `${n} new ↓`;
    this.jump.setAttribute("aria-label", `${n} new: show the newest`);
  }
}
