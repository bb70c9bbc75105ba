// The logbook's few touches of script, none of which a page needs to work (a served file: the CSP
// allows no inline script).
(function () {
  "use strict";

  // Tables become cards on a narrow screen (logbook.css): each cell gets its column's name, read
  // from the table's header, to show beside its value (wrapped in one element, so that the two
  // make a row of two columns). A header that is only for screen readers (the entries' "Amend")
  // or empty gives none.
  function labelCells(root) {
    root.querySelectorAll("table.timeline").forEach(function (table) {
      var names = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.querySelector(".visually-hidden") ? "" : th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (row) {
        var column = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          var span = cell.colSpan || 1;
          if (span === 1 && names[column] && !cell.hasAttribute("data-label")) {
            cell.setAttribute("data-label", names[column]);
            // A long name ("When (America/New_York)") goes above its value on a phone.
            if (names[column].length > 16) cell.setAttribute("data-label-long", "");
            var value = document.createElement("div");
            value.className = "cell";
            while (cell.firstChild) value.appendChild(cell.firstChild);
            cell.appendChild(value);
          }
          column += span;
        });
      });
    });
  }

  // The inspection: "All items pass" marks every item's Pass, then puts the cursor in the
  // signature's password field; a failing item is still one tap on its Fail.
  function allPass(root) {
    root.querySelectorAll("[data-all-pass]").forEach(function (button) {
      if (button.dataset.ready) return;
      button.dataset.ready = "1";
      button.hidden = false;
      button.addEventListener("click", function () {
        var form = button.closest("form");
        form.querySelectorAll("input[type=radio][value=pass]").forEach(function (radio) {
          radio.checked = true;
          radio.dispatchEvent(new Event("change", { bubbles: true }));
        });
        var password = form.querySelector("input[name=password]");
        if (password) password.focus();
      });
    });
  }

  // A form with photos on a slow floor network: sent in the background so that a bar shows how
  // much has gone, the button kept from a second tap (the form's one-time token already keeps a
  // second send from making a second entry); the answer then replaces the page as the browser's own
  // send would have. Without photos, or without XMLHttpRequest, the form is sent as any other.
  function uploadProgress(root) {
    root.querySelectorAll("form[data-upload]").forEach(function (form) {
      if (form.dataset.uploadReady) return;
      form.dataset.uploadReady = "1";
      form.addEventListener("submit", function (event) {
        var count = 0;
        form.querySelectorAll("input[type=file]").forEach(function (input) { count += input.files.length; });
        if (!count || !window.FormData || !window.XMLHttpRequest) return;
        event.preventDefault();
        var button = form.querySelector("button[type=submit]");
        var bar = document.createElement("progress");
        bar.className = "upload";
        bar.max = 100;
        var said = document.createElement("p");
        said.className = "upload-status";
        said.setAttribute("role", "status");
        said.textContent = form.dataset.upload + " 0%";
        form.appendChild(bar);
        form.appendChild(said);
        if (button) button.disabled = true;
        var request = new XMLHttpRequest();
        request.open("POST", form.getAttribute("action") || window.location.href);
        request.upload.addEventListener("progress", function (progress) {
          if (!progress.lengthComputable) return;
          var percent = Math.round((100 * progress.loaded) / progress.total);
          bar.value = percent;
          said.textContent = form.dataset.upload + " " + percent + "%";
        });
        request.addEventListener("load", function () {
          window.history.replaceState(null, "", request.responseURL || window.location.href);
          document.open();
          document.write(request.responseText);
          document.close();
        });
        request.addEventListener("error", function () {
          bar.remove();
          said.textContent = form.dataset.uploadFailed;
          if (button) button.disabled = false;
        });
        request.send(new FormData(form));
      });
    });
  }

  function enhance(root) {
    labelCells(root);
    allPass(root);
    uploadProgress(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  // What htmx swaps in (the floor's tiles, a report's row, the live check) is labelled too.
  document.addEventListener("htmx:load", function (event) {
    enhance(event.detail.elt.closest("table") || event.detail.elt);
  });
})();
