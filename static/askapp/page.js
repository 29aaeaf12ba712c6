/*
 * askapp pages: what the script adds to every chat page besides asking (chat.js does that).
 * The forms work without it; with it, sources open in place, Copy puts the answer on the
 * clipboard as Markdown, "Edit and ask" fills the question box, and feedback, rename and
 * delete go to the JSON API. It also holds the helpers chat.js uses (window.askapp).
 *
 * Data (questions, answer text, error messages) only ever reaches the page through
 * textContent; the one HTML inserted anywhere is the server-rendered answer fragment.
 */
(function () {
  "use strict";

  var main = document.getElementById("main");
  if (!main || !window.fetch) return; // the plain forms keep working
  var urls = {
    stream: main.dataset.apiStream,
    conversations: main.dataset.apiConversations,
    conversation: main.dataset.apiConversation,
    feedback: main.dataset.apiFeedback,
    page: main.dataset.conversationPage,
    fragment: main.dataset.turnFragment,
    placeholder: main.dataset.placeholder,
  };
  var announcer = document.getElementById("announcer");
  var textarea = document.querySelector("#ask-form textarea[name=question]");

  document.addEventListener("submit", onSubmit);
  document.addEventListener("click", onClick);
  revealScriptOnlyControls(document);

  // --- helpers (shared with chat.js) -----------------------------------------------------

  function url(template, id) {
    return template.replace(urls.placeholder, encodeURIComponent(id));
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function announce(text) {
    if (!announcer) return;
    announcer.textContent = "";
    // A fresh text node after clearing makes screen readers read a repeated message too.
    window.requestAnimationFrame(function () {
      announcer.textContent = text;
    });
  }

  function revealScriptOnlyControls(root) {
    root.querySelectorAll("[data-markdown][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function ApiError(message, status, retryAfter) {
    this.name = "ApiError";
    this.message = message;
    this.status = status;
    this.retryAfter = retryAfter || 0; // seconds, from a 429's Retry-After header
  }

  function retryAfter(response) {
    var seconds = parseInt(response.headers.get("Retry-After") || "", 10);
    return isNaN(seconds) ? 0 : Math.max(1, seconds);
  }

  async function failure(response) {
    return new ApiError(await errorMessage(response), response.status, retryAfter(response));
  }

  async function errorMessage(response) {
    var body = null;
    try {
      body = await response.json();
    } catch (ignored) {
      body = null;
    }
    if (body && body.error && body.error.message) return body.error.message;
    return "The request failed (HTTP " + response.status + ").";
  }

  async function api(method, path, body, signal) {
    var response = await fetch(path, {
      method: method,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal,
    });
    if (!response.ok) throw await failure(response);
    return response.status === 204 ? null : response.json();
  }

  // --- events ----------------------------------------------------------------------------

  function onSubmit(event) {
    var form = event.target;
    if (form.matches("[data-feedback]")) return submitFeedback(event, form);
    if (form.matches("[data-rename]")) return submitRename(event, form);
    if (form.matches("[data-delete]")) return submitDelete(event, form);
  }

  function onClick(event) {
    var cite = event.target.closest("a[data-cite]");
    if (cite) return openSource(event, cite);
    var copy = event.target.closest("button[data-markdown]");
    if (copy) return copyAnswer(copy);
    var edit = event.target.closest("a[data-edit]");
    if (edit && textarea) return editQuestion(event, edit);
  }

  function toComposer(text) {
    if (text !== undefined) textarea.value = text;
    textarea.focus({ preventScroll: true });
    var end = textarea.value.length;
    textarea.setSelectionRange(end, end);
  }

  function editQuestion(event, link) {
    event.preventDefault();
    toComposer(link.dataset.edit);
    textarea.scrollIntoView({ block: "nearest" });
    announce("The question is in the question box: edit it, then press Enter to ask it.");
  }

  // --- sources and copying ---------------------------------------------------------------

  function openSource(event, link) {
    var target = document.getElementById(link.dataset.cite);
    if (!target) return;
    event.preventDefault();
    var details = target.querySelector("details");
    if (details) details.open = true;
    document.querySelectorAll(".is-highlighted").forEach(function (node) {
      node.classList.remove("is-highlighted");
    });
    target.classList.add("is-highlighted");
    var summary = target.querySelector("summary");
    (summary || target).focus();
    // The passage's cited sentence, when it has one, is what the reader came for.
    var cited = target.querySelector("mark.cited");
    (cited || target).scrollIntoView({ block: "nearest" });
  }

  /* The answer as Markdown (rendered by the server: its text, what was carried, and the
     numbered sources its citation numbers point to). */
  async function copyAnswer(button) {
    var markdown = button.dataset.markdown;
    try {
      await navigator.clipboard.writeText(markdown);
      announce("Answer copied as Markdown, with its sources.");
      button.textContent = "Copied";
    } catch (ignored) {
      var box = element("textarea", "copy-box");
      box.value = markdown;
      box.readOnly = true;
      box.setAttribute("aria-label", "The answer as Markdown");
      button.after(box);
      box.select();
      announce("Copying is not allowed here; the Markdown is selected, press Ctrl+C to copy it.");
    }
  }

  // --- feedback, rename, delete ----------------------------------------------------------

  async function submitFeedback(event, form) {
    var value = event.submitter && event.submitter.value;
    if (!value) return;
    event.preventDefault();
    var status = form.querySelector(".feedback-status");
    var comment = form.querySelector("textarea[name=comment]");
    try {
      await api("POST", url(urls.feedback, form.dataset.feedback), {
        value: value,
        comment: comment ? comment.value : "",
      });
      form.querySelectorAll("button[name=value]").forEach(function (button) {
        button.setAttribute("aria-pressed", button.value === value ? "true" : "false");
      });
      status.textContent =
        "Thank you: you marked this answer " + (value === "up" ? "helpful." : "not helpful.");
      var details = form.querySelector("details");
      if (details) details.open = false;
    } catch (error) {
      status.textContent = error.message || "The feedback could not be sent.";
    }
  }

  async function submitRename(event, form) {
    event.preventDefault();
    var id = form.dataset.rename;
    var field = form.elements.namedItem("title");
    try {
      var updated = await api("PATCH", url(urls.conversation, id), { title: field.value });
      var title = updated.title || "Untitled conversation";
      document.getElementById("conversation-title").textContent = title;
      document.title = title + " · askapp";
      document.querySelectorAll(".recent a[aria-current=page]").forEach(function (link) {
        link.textContent = title;
      });
      var details = form.closest("details");
      if (details) details.open = false;
      announce("Conversation renamed to " + title + ".");
    } catch (error) {
      announce(error.message || "The conversation could not be renamed.");
    }
  }

  async function submitDelete(event, form) {
    event.preventDefault();
    try {
      await api("DELETE", url(urls.conversation, form.dataset.delete));
      window.location.assign(main.dataset.home);
    } catch (error) {
      announce(error.message || "The conversation could not be deleted.");
    }
  }

  window.askapp = {
    urls: urls,
    url: url,
    csrfToken: csrfToken,
    element: element,
    announce: announce,
    api: api,
    failure: failure,
    errorMessage: errorMessage,
    ApiError: ApiError,
    revealScriptOnlyControls: revealScriptOnlyControls,
  };
})();
