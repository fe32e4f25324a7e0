// The sign-up form's time zone: the browser's own, if the list has it.
// Only fills the field (the server guessed one from the browser's
// languages; the reader may still pick another).  Loaded as a file: the
// Content-Security-Policy allows this site's script files, nothing inline.
(function () {
  "use strict";
  var select = document.getElementById("timezone");
  if (!select || select.getAttribute("data-guess") !== "yes") {
    return;                         // a form sent back with errors keeps its choice
  }
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) {
      select.value = zone;
      return;
    }
  }
}());
