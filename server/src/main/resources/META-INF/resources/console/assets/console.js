// Progressive enhancement only: every page works without this script.
// Shows each <time> (rendered in UTC) in the reader's own time zone.
document.querySelectorAll("time[datetime]").forEach((element) => {
  const when = new Date(element.getAttribute("datetime"));
  if (!Number.isNaN(when.getTime())) {
    element.title = element.textContent;
    element.textContent = when.toLocaleString(undefined, {
      year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
    });
  }
});
