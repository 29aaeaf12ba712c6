/*
 * askapp chat page, asking: the ask forms work without this script; with it, questions
 * stream from /v1/ask/stream (page.js, loaded first, does the rest and holds the helpers).
 *
 * Rules kept throughout:
 * - Data (questions, answer text, error messages) only ever reaches the page through
 *   textContent. The one HTML this script inserts is the server-rendered, autoescaped
 *   answer fragment from /turns/<id>/, the same template the conversation page uses.
 * - A finished answer is always shown by that fragment, so a streamed answer and a reloaded
 *   one look the same (sources, chart, carried slots, feedback).
 * - The composer comes first: after every answer (or failure) focus returns to the question
 *   box and the live region says what happened; a question that was not answered (stopped,
 *   throttled, failed) is never lost: it stays on the page with a way to ask it again.
 */
(function () {
  "use strict";

  var main = document.getElementById("main");
  var askForm = document.getElementById("ask-form");
  var shared = window.askapp;
  if (!main || !askForm || !shared || !window.AbortController || !window.TextDecoder) {
    return; // the plain forms keep working
  }
  var urls = shared.urls;
  var url = shared.url;
  var csrfToken = shared.csrfToken;
  var element = shared.element;
  var announce = shared.announce;
  var api = shared.api;
  var failure = shared.failure;
  var ApiError = shared.ApiError;
  var revealScriptOnlyControls = shared.revealScriptOnlyControls;
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

  // --- events ----------------------------------------------------------------------------

  function onSubmit(event) {
    var form = event.target;
    if (form.matches("[data-ask]")) return submitQuestion(event, form);
  }

  function onClick(event) {
    var retry = event.target.closest("button[data-retry]");
    if (retry) return retryQuestion(retry);
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
    ask(question, conversation, scope, form === askForm);
  }

  // --- asking ----------------------------------------------------------------------------

  async function ask(question, conversation, scope, typed) {
    var view = streamingView(question);
    var controller = new AbortController();
    running = {
      controller: controller,
      view: view,
      conversation: conversation,
      question: question,
      isNew: !conversation,
      typed: typed,
    };
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
      if (!response.ok) throw await failure(response);
      var finished = await readEvents(response.body, function (kind, data) {
        return onStreamEvent(kind, data, view);
      });
      if (!finished) {
        showProblem(view, "The connection ended before the answer was complete.", 0, true);
      }
    } catch (error) {
      if (error && error.name === "AbortError") {
        showStopped(view);
      } else if (error instanceof ApiError) {
        showProblem(view, error.message, error.retryAfter, false);
      } else {
        showProblem(view, "The connection failed before the answer was complete.", 0, true);
      }
    } finally {
      var finishedAsk = running;
      running = null;
      setBusy(false);
      if (finishedAsk && finishedAsk.isNew && finishedAsk.conversation) {
        await refreshChrome(finishedAsk.conversation);
      }
      textarea.focus({ preventScroll: true });
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

  /* The page around the conversation, as the server renders it now: its heading (the title
     the first question gave it), the rename and delete actions, the sidebar and the tab's
     title. Fetched once, after the first answer of a new conversation. */
  async function refreshChrome(id) {
    var parsed;
    try {
      var response = await fetch(url(urls.page, id), {
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      if (!response.ok) return;
      parsed = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch (ignored) {
      return;
    }
    [".chat-header", ".sidebar"].forEach(function (selector) {
      var fresh = parsed.querySelector(selector);
      var stale = document.querySelector(selector);
      if (fresh && stale) stale.replaceWith(document.adoptNode(fresh));
    });
    if (parsed.title) document.title = parsed.title;
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
      showProblem(view, message, 0, false);
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
      answer.scrollIntoView({ block: "nearest" });
      announce(spoken(answer));
    }
    return true;
  }

  /* What the live region says of a finished answer: its status, its text (citation numbers
     and all), and how many choices it offers. Focus stays in the question box. */
  function spoken(answer) {
    var heading = answer.querySelector(".status");
    var icon = heading && heading.querySelector("[aria-hidden]");
    var label = heading ? heading.textContent.replace(icon ? icon.textContent : "", "") : "";
    var text = answer.querySelector(".answer-text");
    var words = (text ? text.textContent : "").replace(/\s+/g, " ").trim();
    if (words.length > 400) words = words.slice(0, 399) + "…";
    var said = "Answer ready. " + label.trim() + ". " + words;
    var choices = answer.querySelectorAll(".choices button").length;
    if (choices) said += " " + choices + " suggested question" + (choices > 1 ? "s" : "") + " follow.";
    return said;
  }

  async function showFinished(view, turnId) {
    if (await replaceWithFragment(view, turnId)) return;
    // The answer is stored; only its rendering failed to load. Keep the streamed text.
    finishView(view, "history", "✓", "Answer (reload the page for its sources)");
  }

  function finishView(view, status, icon, label, said) {
    view.article.className = "answer answer--" + status;
    view.article.dataset.status = status;
    view.article.removeAttribute("aria-busy");
    view.icon.textContent = icon;
    view.label.textContent = label;
    announce(said || label);
  }

  /* "Ask again" for a question that was not answered here: a form like every ask form, so
     it goes the same way (and works the same after a reload). */
  function askAgainForm(question, conversation) {
    var form = element("form", "answer-problem");
    form.method = "post";
    form.action = askForm.action;
    form.dataset.ask = "";
    var token = askForm.querySelector("input[name=csrfmiddlewaretoken]");
    if (token) form.appendChild(token.cloneNode());
    if (conversation) {
      var field = element("input");
      field.type = "hidden";
      field.name = "conversation";
      field.value = conversation;
      form.appendChild(field);
    }
    var again = element("button", "", "Ask again");
    again.type = "submit";
    again.name = "question";
    again.value = question;
    form.appendChild(again);
    return form;
  }

  function storedLink(conversation) {
    var link = element("a", "", "Show the stored answer");
    link.href = url(urls.page, conversation);
    return link;
  }

  function showStopped(view) {
    var conversation = running && running.conversation;
    var note = element(
      "p",
      "note",
      conversation
        ? "You stopped this answer: what arrived is kept above. The server still finishes and stores the whole answer. "
        : "You stopped this answer before it reached the server: nothing was stored."
    );
    if (conversation) note.appendChild(storedLink(conversation));
    view.article.appendChild(note);
    view.article.appendChild(askAgainForm(running.question, conversation));
    if (!view.text.textContent) view.text.textContent = "(Stopped before any words arrived.)";
    finishView(view, "stopped", "■", "Stopped", "Answer stopped. The question can be asked again.");
  }

  /* A question that failed stays on the page with Retry (after the seconds a 429 asks for),
     and a typed question goes back into the question box. */
  function showProblem(view, message, wait, connectionLost) {
    var asked = running;
    view.text.textContent = message;
    var actions = element("div", "answer-problem");
    var retry = element("button", "", "Retry");
    retry.type = "button";
    retry.dataset.retry = asked.question;
    actions.appendChild(retry);
    if (connectionLost && asked.conversation) actions.appendChild(storedLink(asked.conversation));
    view.article.appendChild(actions);
    if (asked.typed && !textarea.value) textarea.value = asked.question;
    var said = "Could not answer: " + message;
    if (wait) {
      countDown(retry, wait);
      said += " Retry in " + wait + " seconds; the question is still in the question box.";
    }
    finishView(view, "error", "!", "Could not answer", said);
  }

  function countDown(button, seconds) {
    var left = seconds;
    button.disabled = true;
    button.textContent = "Retry in " + left + " s";
    var timer = window.setInterval(function () {
      left -= 1;
      if (left > 0) {
        button.textContent = "Retry in " + left + " s";
        return;
      }
      window.clearInterval(timer);
      button.disabled = false;
      button.textContent = "Retry";
    }, 1000);
  }

  function retryQuestion(button) {
    if (running) {
      announce("Wait for the current answer, or stop it first.");
      return;
    }
    var question = button.dataset.retry;
    var item = button.closest("li.exchange");
    if (item) item.remove();
    if (textarea.value === question) textarea.value = "";
    var conversation = formValue(askForm, null, "conversation");
    ask(question, conversation, conversation ? "" : formValue(askForm, null, "scope"), true);
  }
})();
