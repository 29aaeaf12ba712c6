/*
 * askapp chat page: the forms work without this script; with it, questions stream from
 * /v1/ask/stream and the other forms go to the JSON API.
 *
 * Rules kept throughout:
 * - Data (questions, answer text, error messages) only ever reaches the page through
 *   textContent. The one HTML this script inserts is the server-rendered, autoescaped
 *   answer fragment from /turns/<id>/, the same template the conversation page uses.
 * - A finished answer is always shown by that fragment, so a streamed answer and a reloaded
 *   one look the same (sources, chart, carried slots, feedback).
 */
(function () {
  "use strict";

  var main = document.getElementById("main");
  var askForm = document.getElementById("ask-form");
  if (!main || !askForm || !window.fetch || !window.AbortController || !window.TextDecoder) {
    return; // the plain forms keep working
  }
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
  var exchanges = document.getElementById("exchanges");
  var askButton = askForm.querySelector("[data-ask-button]");
  var stopButton = askForm.querySelector("[data-stop]");
  var textarea = askForm.querySelector("textarea[name=question]");
  var running = null; // the answer being streamed: {controller, view, conversation}

  document.addEventListener("submit", onSubmit);
  document.addEventListener("click", onClick);
  stopButton.addEventListener("click", function () {
    if (running) running.controller.abort();
  });
  textarea.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      askForm.requestSubmit(askButton);
    }
  });
  revealScriptOnlyControls(document);

  // --- small helpers ---------------------------------------------------------------------

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
    announcer.textContent = "";
    // A fresh text node after clearing makes screen readers read a repeated message too.
    window.requestAnimationFrame(function () {
      announcer.textContent = text;
    });
  }

  function revealScriptOnlyControls(root) {
    root.querySelectorAll("[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function ApiError(message, status) {
    this.name = "ApiError";
    this.message = message;
    this.status = status;
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
    if (!response.ok) throw new ApiError(await errorMessage(response), response.status);
    return response.status === 204 ? null : response.json();
  }

  // --- events ----------------------------------------------------------------------------

  function onSubmit(event) {
    var form = event.target;
    if (form.matches("[data-ask]")) return submitQuestion(event, form);
    if (form.matches("[data-feedback]")) return submitFeedback(event, form);
    if (form.matches("[data-rename]")) return submitRename(event, form);
    if (form.matches("[data-delete]")) return submitDelete(event, form);
  }

  function onClick(event) {
    var cite = event.target.closest("a[data-cite]");
    if (cite) return openSource(event, cite);
    var copy = event.target.closest("button[data-copy]");
    if (copy) return copyAnswer(copy);
  }

  function formValue(form, submitter, name) {
    if (submitter && submitter.name === name) return submitter.value;
    var field = form.elements.namedItem(name);
    return field && "value" in field ? field.value : "";
  }

  function submitQuestion(event, form) {
    var question = formValue(form, event.submitter, "question").trim();
    if (!question) return; // the browser's own "required" message, or the server's
    event.preventDefault();
    if (running) {
      announce("Wait for the current answer, or stop it first.");
      return;
    }
    var conversation = formValue(askForm, null, "conversation") || formValue(form, null, "conversation");
    var scope = conversation ? "" : formValue(askForm, null, "scope");
    if (form === askForm) textarea.value = "";
    ask(question, conversation, scope);
  }

  // --- asking ----------------------------------------------------------------------------

  async function ask(question, conversation, scope) {
    var view = streamingView(question);
    var controller = new AbortController();
    running = { controller: controller, view: view, conversation: conversation, question: question };
    setBusy(true);
    try {
      if (!conversation && scope) {
        var created = await api("POST", urls.conversations, { scope: scope }, controller.signal);
        adoptConversation(created.id);
      }
      var body = { question: question };
      if (running.conversation) body.conversation = running.conversation;
      var response = await fetch(urls.stream, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "text/event-stream",
          "X-CSRFToken": csrfToken(),
        },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok) throw new ApiError(await errorMessage(response), response.status);
      var finished = await readEvents(response.body, function (kind, data) {
        return onStreamEvent(kind, data, view);
      });
      if (!finished) {
        showProblem(view, "The connection ended before the answer was complete.", true);
      }
    } catch (error) {
      if (error && error.name === "AbortError") {
        showStopped(view);
      } else if (error instanceof ApiError) {
        showProblem(view, error.message, false);
      } else {
        showProblem(view, "The connection failed before the answer was complete.", true);
      }
    } finally {
      running = null;
      setBusy(false);
    }
  }

  function setBusy(busy) {
    askButton.disabled = busy;
    stopButton.hidden = !busy;
  }

  function adoptConversation(id) {
    if (!id || (running && running.conversation === id)) return;
    if (running) running.conversation = id;
    var field = askForm.elements.namedItem("conversation");
    if (field) field.value = id;
    var scope = askForm.querySelector(".scope-field");
    if (scope) scope.remove();
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", url(urls.page, id));
    }
    listInSidebar(id);
  }

  function listInSidebar(id) {
    var sidebar = document.querySelector(".sidebar");
    if (!sidebar || !running || sidebar.querySelector('a[href="' + url(urls.page, id) + '"]')) return;
    var list = sidebar.querySelector(".recent");
    if (!list) {
      var empty = sidebar.querySelector(".muted");
      if (empty) empty.remove();
      list = element("ul", "recent");
      sidebar.appendChild(list);
    }
    var link = element("a", "", running.question);
    link.href = url(urls.page, id);
    link.setAttribute("aria-current", "page");
    var item = element("li");
    item.appendChild(link);
    list.insertBefore(item, list.firstChild);
  }

  /* Server-sent events from a fetch body: blocks split by a blank line, `event:` and
     `data:` fields, comment lines (keepalives) skipped. Resolves true once `done` or
     `error` arrived, false if the stream ended first. */
  async function readEvents(body, onEvent) {
    var reader = body.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    var finished = false;
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
      var end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        var message = parseEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (!message) continue;
        if (message.event === "done" || message.event === "error") finished = true;
        await onEvent(message.event, message.data);
      }
    }
    return finished;
  }

  function parseEvent(block) {
    var name = "message";
    var data = [];
    block.split("\n").forEach(function (line) {
      if (!line || line.charAt(0) === ":") return;
      var colon = line.indexOf(":");
      var field = colon < 0 ? line : line.slice(0, colon);
      var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    });
    if (!data.length) return null;
    try {
      return { event: name, data: JSON.parse(data.join("\n")) };
    } catch (ignored) {
      return null;
    }
  }

  async function onStreamEvent(kind, data, view) {
    if (kind === "meta") {
      adoptConversation(data.conversation);
      showUnderstood(view, data.intent);
    } else if (kind === "delta") {
      view.text.textContent += data.text || "";
    } else if (kind === "done") {
      adoptConversation(data.conversation);
      await showFinished(view, data.turn.id);
    } else if (kind === "error") {
      if (data.conversation) adoptConversation(data.conversation);
      var message = (data.error && data.error.message) || "The answer failed.";
      if (data.turn && data.turn.id && (await replaceWithFragment(view, data.turn.id))) return;
      showProblem(view, message, false);
    }
  }

  // --- what the visitor sees while an answer streams -------------------------------------

  function streamingView(question) {
    var empty = document.getElementById("empty-state");
    if (empty) empty.remove();
    var item = element("li", "exchange");
    var asked = element("div", "question");
    var number = exchanges.querySelectorAll(".question:not(.question--supplied)").length + 1;
    asked.appendChild(element("h2", "who", "Your question " + number));
    asked.appendChild(element("p", "question-text", question));
    var article = element("article", "answer answer--streaming");
    article.tabIndex = -1;
    article.setAttribute("aria-busy", "true");
    var status = element("h3", "status");
    var icon = element("span", "status-icon", "…");
    icon.setAttribute("aria-hidden", "true");
    var label = element("span", "", "Answering…");
    status.appendChild(icon);
    status.appendChild(document.createTextNode(" "));
    status.appendChild(label);
    var understood = element("div", "understood");
    understood.hidden = true;
    var text = element("p");
    var body = element("div", "answer-text");
    body.appendChild(text);
    article.appendChild(status);
    article.appendChild(understood);
    article.appendChild(body);
    item.appendChild(asked);
    item.appendChild(article);
    exchanges.appendChild(item);
    item.scrollIntoView({ block: "nearest" });
    announce("Answering your question.");
    return { item: item, article: article, label: label, icon: icon, understood: understood, text: text };
  }

  function showUnderstood(view, intent) {
    if (!intent) return;
    var parts = ["entities", "metrics", "periods"]
      .map(function (key) {
        return (intent[key] || []).join(", ");
      })
      .filter(Boolean);
    if (!parts.length) return;
    view.understood.textContent = "";
    var line = element("p");
    line.appendChild(element("span", "understood-label", "Understood as"));
    line.appendChild(document.createTextNode(" " + parts.join(" · ")));
    view.understood.appendChild(line);
    view.understood.hidden = false;
  }

  async function replaceWithFragment(view, turnId) {
    var response;
    try {
      response = await fetch(url(urls.fragment, turnId), {
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
    } catch (ignored) {
      return false;
    }
    if (!response.ok) return false;
    var parsed = new DOMParser().parseFromString(await response.text(), "text/html");
    var fresh = parsed.body.querySelector("li.exchange");
    if (!fresh) return false;
    fresh = document.adoptNode(fresh);
    view.item.replaceWith(fresh);
    revealScriptOnlyControls(fresh);
    var answer = fresh.querySelector(".answer");
    if (answer) {
      answer.focus({ preventScroll: true });
      answer.scrollIntoView({ block: "nearest" });
      var heading = answer.querySelector(".status");
      announce("Answer ready. " + (heading ? heading.textContent.trim() : ""));
    }
    return true;
  }

  async function showFinished(view, turnId) {
    if (await replaceWithFragment(view, turnId)) return;
    // The answer is stored; only its rendering failed to load. Keep the streamed text.
    finishView(view, "history", "✓", "Answer (reload the page for its sources)");
  }

  function finishView(view, status, icon, label) {
    view.article.className = "answer answer--" + status;
    view.article.dataset.status = status;
    view.article.removeAttribute("aria-busy");
    view.icon.textContent = icon;
    view.label.textContent = label;
    view.article.focus({ preventScroll: true });
    announce(label);
  }

  function reloadLink() {
    var conversation = running && running.conversation;
    var paragraph = element("p", "note");
    if (conversation) {
      var link = element("a", "", "Open the stored conversation");
      link.href = url(urls.page, conversation);
      paragraph.appendChild(
        document.createTextNode("The server still finishes and stores the answer. ")
      );
      paragraph.appendChild(link);
      paragraph.appendChild(document.createTextNode(" (or reload) to see it."));
    } else {
      paragraph.textContent = "Reload the page to see whether the answer was stored.";
    }
    return paragraph;
  }

  function showStopped(view) {
    view.article.appendChild(reloadLink());
    finishView(view, "stopped", "■", "Stopped");
  }

  function showProblem(view, message, offerReload) {
    view.text.textContent = message;
    if (offerReload) view.article.appendChild(reloadLink());
    finishView(view, "error", "!", "Could not answer");
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

  async function copyAnswer(button) {
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    var text = source.innerText.trim();
    try {
      await navigator.clipboard.writeText(text);
      announce("Answer copied to the clipboard.");
      button.textContent = "Copied";
    } catch (ignored) {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      announce("Copying is not allowed here; the answer is selected, press Ctrl+C to copy it.");
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
})();
