// swift-sentiment web page: the search scene (/) and the tweets scene
// (/users/{username}), routed on the client. Plain JavaScript, no build step,
// nothing fetched but this server's API.
"use strict";

// MARK: - Helpers

const $ = (selector, root = document) => root.querySelector(selector);

const THEMES = {
  happy: { emoji: "😃", label: "Happy" },
  neutral: { emoji: "😐", label: "Neutral" },
  sad: { emoji: "😔", label: "Sad" },
};
const UNSUPPORTED = { emoji: "🌐", label: "Language not supported" };

/** Characters as a reader counts them (code points, so an emoji is one). */
const characterCount = (text) => Array.from(text).length;

/**
 * The first character as a reader sees it — a letter with its accents, an
 * emoji, a flag — never half of one ("🌻 Sunny".charAt(0) is a lone surrogate,
 * drawn as �); "" for an empty text.
 */
function firstCharacter(text) {
  if (typeof Intl.Segmenter === "function") {
    for (const { segment } of new Intl.Segmenter().segment(text)) return segment;
    return "";
  }
  return Array.from(text)[0] ?? "";
}

/**
 * The server's username rule (User.isValidUsername) for a term as the page
 * sends it (trim()med): trimmed again of what Foundation's whitespacesAndNewlines
 * holds (U+0085 and U+200B too, not U+FEFF), an optional "@", then 1–50 ASCII letters,
 * digits or "_".
 */
const SERVER_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200b\\u2028\\u2029\\u202f\\u205f\\u3000]";
const SERVER_TRIM = new RegExp(`^${SERVER_SPACE}+|${SERVER_SPACE}+$`, "g");
const isValidUsername = (term) => /^@?[A-Za-z0-9_]{1,50}$/.test(term.replace(SERVER_TRIM, ""));

/** The longest search query the server takes (TweetStore.maximumPrefixLength), in code points. */
const MAX_QUERY = 100;

/** Tweets of this many characters or fewer are shown in a larger font. */
const SHORT_TWEET = 80;

function debounce(fn, ms) {
  let timer = 0;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

/** A failed request: `kind` is "connection" (no answer), "server" (an error status) or "unreadable" (a 2xx that is not JSON). */
class RequestError extends Error {
  constructor(kind, status, problem) {
    super(problem?.detail || problem?.title || kind);
    this.kind = kind;
    this.status = status;
    this.problem = problem;
  }
}

/** Fetches JSON from the API; throws a RequestError. Aborted requests rethrow AbortError. */
async function api(path, options = {}) {
  let response;
  try {
    response = await fetch(path, {
      ...options,
      headers: { Accept: "application/json", ...(options.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new RequestError("connection", 0, null);
  }
  if (response.status === 204) return null;
  let body = null;
  let readable = true;
  try {
    body = await response.json();
  } catch (error) {
    if (error.name === "AbortError") throw error;
    readable = false;
  }
  if (!response.ok) throw new RequestError("server", response.status, body);
  // A 2xx whose body is not JSON (a proxy's HTML page, a cut-off answer).
  if (!readable) throw new RequestError("unreadable", response.status, null);
  return body;
}

function errorMessage(error, what) {
  // Not JSON, or JSON of another shape (which throws a TypeError, not a RequestError).
  if (!(error instanceof RequestError) || error.kind === "unreadable") {
    return `The server's answer could not be read, so the page could not ${what}. Retry, or reload the page.`;
  }
  if (error.kind === "connection") {
    return `Can't reach the server to ${what}. Check your connection, then retry.`;
  }
  if (error.status >= 500) {
    const reason = error.problem?.failure?.message || error.problem?.detail;
    return `The server had a problem (${error.status}) and could not ${what}` + (reason ? `: ${reason}.` : ".");
  }
  return error.problem?.detail ? capitalize(error.problem.detail) + "." : `Could not ${what} (${error.status}).`;
}

const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "just now", "5 minutes ago", "yesterday", "Apr 28", "Apr 28, 2023". */
function friendlyDate(iso, now = new Date()) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const seconds = Math.round((date - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), "hour");
  if (abs < 7 * 86400) return relative.format(Math.round(seconds / 86400), "day");
  const options = { month: "short", day: "numeric" };
  if (date.getFullYear() !== now.getFullYear()) options.year = "numeric";
  return date.toLocaleDateString(undefined, options);
}

function fullDate(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A notice with its Retry button, or without one when `onRetry` is null. */
function showNotice(notice, text, onRetry) {
  $(".notice-text", notice).textContent = text;
  const retry = $(".retry", notice);
  retry.onclick = onRetry;
  retry.hidden = !onRetry;
  notice.hidden = false;
}

/**
 * Whether asking again may succeed: a connection that failed, an answer that
 * could not be read, a timeout, rate limiting or a server error. A 4xx
 * (not a username, nothing stored, the API key, a read-only database) would
 * only be answered the same.
 */
function canRetry(error) {
  if (!(error instanceof RequestError) || error.kind !== "server") return true;
  return error.status >= 500 || error.status === 408 || error.status === 429;
}

// MARK: - Routing

const scenes = { search: $("#search-scene"), tweets: $("#tweets-scene") };

function route() {
  const match = location.pathname.match(/^\/users\/([^/]+)\/?$/);
  closeThemeScreen(false);
  if (match) {
    scenes.search.hidden = true;
    scenes.tweets.hidden = false;
    TweetsScene.open(decodedSegment(match[1]));
  } else {
    scenes.tweets.hidden = true;
    scenes.search.hidden = false;
    TweetsScene.close();
    SearchScene.open();
  }
}

/** A path segment decoded; as it is when its percent-encoding is malformed ("%E0%A4%A"), which decodeURIComponent throws on. */
function decodedSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function navigate(path) {
  if (path === location.pathname + location.search) return;
  history.pushState({}, "", path);
  route();
  $("#main").focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-link]");
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);

// MARK: - Search scene

const SearchScene = (() => {
  const input = $("#search-input");
  const form = $("#search-form");
  const results = $("#search-results");
  const title = $("#results-title");
  const skeleton = $("#skeleton-list");
  const errorBox = $("#search-error");
  const lists = $("#search-lists");
  const userList = $("#user-list");
  const recentTitle = $("#recent-title");
  const recentList = $("#recent-list");
  const empty = $("#search-empty");
  const clear = $("#clear-history");
  let controller = null;
  let lastSearched = "";

  function userItem(user) {
    const initial = firstCharacter((user.display_name || user.username).trim()).toUpperCase() || "@";
    return element("li", {},
      element("a", { href: `/users/${encodeURIComponent(user.username)}`, "data-link": true, "data-username": user.username },
        element("span", { className: "avatar", "aria-hidden": "true", text: initial }),
        element("span", {},
          element("span", { className: "user-name", text: user.display_name || user.username }),
          element("span", { className: "user-handle", text: `@${user.username}` }))));
  }

  function recentItem(entry) {
    return element("li", { className: "recent" },
      element("a", { href: `/users/${encodeURIComponent(entry.username)}`, "data-link": true, "data-username": entry.username },
        element("span", { className: "avatar", "aria-hidden": "true", text: "🕓" }),
        element("span", {},
          element("span", { className: "user-name", text: `@${entry.username}` }),
          element("span", { className: "user-when", text: `searched ${friendlyDate(entry.searched_at)}` }))));
  }

  function setLoading(loading) {
    results.setAttribute("aria-busy", String(loading));
    skeleton.hidden = !loading;
    if (loading) {
      lists.hidden = true;
      empty.hidden = true;
      errorBox.hidden = true;
    }
  }

  function showEmpty(text) {
    lists.hidden = true;
    errorBox.hidden = true;
    empty.hidden = false;
    $(".empty-text", empty).textContent = text;
  }

  async function search(term) {
    controller?.abort();
    // The input's maxlength counts UTF-16 units, so this holds; a value set another way may not.
    const length = characterCount(term);
    if (length > MAX_QUERY) {
      controller = null;
      setLoading(false);
      showEmpty(`A search is at most ${MAX_QUERY} characters; this one has ${length}.`);
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    setLoading(true);
    try {
      const answer = await api(`/v1/users?query=${encodeURIComponent(term)}&limit=10`, { signal });
      if (signal.aborted) return;
      render(term, answer);
    } catch (error) {
      if (error.name === "AbortError") return;
      setLoading(false);
      lists.hidden = true;
      showNotice(errorBox, errorMessage(error, "search"), canRetry(error) ? () => search(input.value.trim()) : null);
    }
  }

  function render(term, answer) {
    setLoading(false);
    lastSearched = term;
    const cleaned = term.replace(/^@/, "");
    const recentNames = answer.recent.map((entry) => entry.username);
    if (cleaned) {
      title.textContent = `Results for “${term}”`;
    } else {
      title.textContent = recentNames.length ? `Last searched: @${recentNames[0]}` : "Recent searches";
    }
    userList.replaceChildren(...answer.users.map(userItem));
    const shown = new Set(answer.users.map((user) => user.username.toLowerCase()));
    const recent = answer.recent.filter((entry) => !shown.has(entry.username.toLowerCase()));
    recentList.replaceChildren(...recent.map(recentItem));
    recentTitle.hidden = recent.length === 0 || (!cleaned && answer.users.length === 0);
    // Beside the recent searches it clears: hidden when none is listed.
    clear.hidden = recent.length === 0;
    const nothing = answer.users.length === 0 && recent.length === 0;
    lists.hidden = nothing;
    empty.hidden = !nothing;
    if (nothing) {
      $(".empty-text", empty).textContent = !cleaned
        ? "No searches yet. Type a username to begin."
        : isValidUsername(term)
          ? `No stored user starts with “${cleaned}”. Press Enter to look @${cleaned} up.`
          : `No stored user starts with “${cleaned}”, and it is not a valid username (1–50 letters, digits or _).`;
    }
  }

  const searchSoon = debounce((term) => search(term), 200);

  input.addEventListener("input", () => searchSoon(input.value.trim()));

  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") {
      const first = $("#search-lists a", results);
      if (first && !lists.hidden) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  results.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = [...results.querySelectorAll("#search-lists a")];
    const index = links.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    const next = index + (event.key === "ArrowDown" ? 1 : -1);
    if (next < 0) input.focus();
    else links[Math.min(next, links.length - 1)].focus();
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim().replace(/^@/, "");
    if (!name) {
      input.focus();
      return;
    }
    searchSoon.cancel();
    if (!isValidUsername(input.value.trim())) {
      // The server would answer 400, on a page whose Retry could never succeed:
      // stay here, where the empty state says why.
      search(input.value.trim());
      input.focus();
      return;
    }
    navigate(`/users/${encodeURIComponent(name)}`);
  });

  clear.addEventListener("click", async () => {
    try {
      await api("/v1/history", { method: "DELETE" });
      search(input.value.trim());
    } catch (error) {
      const text = error.status === 401 ? "Clearing the recent searches needs the server's API key." : errorMessage(error, "clear the recent searches");
      showNotice(errorBox, text, canRetry(error) ? () => clear.click() : null);
    }
  });

  return {
    open() {
      document.title = "Sentiment";
      search(input.value.trim());
    },
    get lastSearched() {
      return lastSearched;
    },
  };
})();

// MARK: - Try it

(() => {
  const input = $("#try-input");
  const mood = $("#try-mood");
  const emoji = $(".try-emoji", mood);
  const label = $(".try-label", mood);
  const score = $(".try-score", mood);
  let controller = null;

  function show(state, icon, text, detail = "") {
    mood.dataset.mood = state;
    if (THEMES[state]) mood.dataset.theme = state;
    else delete mood.dataset.theme;
    emoji.textContent = icon;
    label.textContent = text;
    score.textContent = detail;
  }

  const classify = debounce(async (text) => {
    controller?.abort();
    if (!text.trim()) {
      show("empty", "💬", "Type something");
      return;
    }
    controller = new AbortController();
    mood.setAttribute("aria-busy", "true");
    try {
      const answer = await api("/v1/classify", {
        method: "POST",
        body: JSON.stringify({ texts: [text] }),
        signal: controller.signal,
      });
      const result = answer.results[0];
      // Only invisible characters (U+200B, U+2060, …), which trim() keeps: as empty as spaces.
      if (result.error?.code === "empty-text") show("empty", "💬", "Type something");
      else if (result.error) show("error", "⚠️", result.error.detail);
      else if (!result.theme) show("unsupported", UNSUPPORTED.emoji, UNSUPPORTED.label, `(${result.lang})`);
      else {
        const theme = THEMES[result.theme.name];
        show(result.theme.name, theme.emoji, theme.label, `score ${result.score >= 0 ? "+" : ""}${result.score.toFixed(2)}`);
      }
    } catch (error) {
      if (error.name === "AbortError") return;
      show("error", "⚠️", errorMessage(error, "classify the text"));
    } finally {
      mood.removeAttribute("aria-busy");
    }
  }, 300);

  input.addEventListener("input", () => classify(input.value));
})();

// MARK: - Tweets scene

const TweetsScene = (() => {
  const titleNode = $("#tweets-title");
  const subtitle = $("#tweets-subtitle");
  const list = $("#tweet-list");
  const skeleton = $("#tweet-skeleton");
  const errorBox = $("#tweets-error");
  const stale = $("#stale-banner");
  const empty = $("#tweets-empty");
  const more = $("#load-more");
  const end = $("#list-end");
  const sentinel = $("#more-sentinel");
  const refresh = $("#refresh");
  let username = null;
  let cursor = null;
  let loading = false;
  let generation = 0;
  let controller = null;

  const observer = "IntersectionObserver" in window
    ? new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && cursor && !loading && errorBox.hidden) load(false);
    }, { rootMargin: "200px" })
    : null;

  // A list item holding a button: a list of tweets, each one activatable. Spans, not
  // paragraphs, inside the button (its content is phrasing content only).
  function tweetItem(tweet) {
    const themeName = tweet.theme?.name;
    const look = themeName ? THEMES[themeName] : UNSUPPORTED;
    const short = characterCount(tweet.text) <= SHORT_TWEET;
    const when = friendlyDate(tweet.created_at);
    const button = element("button", {
      type: "button",
      className: "tweet",
      "data-id": tweet.id,
      "data-theme": themeName,
      "data-mood": tweet.mood,
      "aria-label": `${look.label}: ${tweet.text}. ${when}`,
    },
      element("span", { className: "tweet-bar", "aria-hidden": "true" }),
      element("span", { className: "tweet-body" },
        element("span", { className: short ? "tweet-text short" : "tweet-text", text: tweet.text }),
        element("span", { className: "tweet-meta" },
          element("span", { className: "tweet-emoji", "aria-hidden": "true", text: look.emoji }),
          element("span", { className: "tweet-mood", text: look.label }),
          element("span", { "aria-hidden": "true", text: "·" }),
          element("time", { datetime: tweet.created_at, title: fullDate(tweet.created_at), text: when }))));
    button.tweet = tweet;
    return element("li", {}, button);
  }

  function setStale(answer) {
    if (!answer.stale) {
      stale.hidden = true;
      return;
    }
    const reason = answer.failure?.kind === "connection" || answer.failure?.kind === "timeout"
      ? "X could not be reached"
      : answer.failure?.kind === "rate_limited"
        ? "X is rate limiting us"
        : answer.failure?.kind === "unavailable"
          ? "X is not configured on this server"
          : answer.failure?.kind === "unknown_user"
            ? "X does not know this account now"
            : "X answered with an error";
    showNotice(stale, `These tweets may be out of date: ${reason}. Showing the stored ones.`, () => load(true));
  }

  async function load(first) {
    if (loading && !first) return;
    const mine = first ? ++generation : generation;
    // A refresh keeps the tweets shown until the new ones come, and keeps
    // them, with an error, when they do not.
    const refreshing = first && list.children.length > 0;
    const shownCursor = cursor;
    if (first) {
      controller?.abort();
      cursor = null;
    }
    controller = controller && !first ? controller : new AbortController();
    loading = true;
    errorBox.hidden = true;
    skeleton.hidden = false;
    more.hidden = true;
    end.hidden = true;
    if (first) {
      if (!refreshing) list.replaceChildren();
      empty.hidden = true;
      stale.hidden = true;
      list.setAttribute("aria-busy", "true");
    }
    const query = new URLSearchParams();
    if (cursor) query.set("cursor", cursor);
    try {
      const answer = await api(`/v1/users/${encodeURIComponent(username)}/tweets?${query}`, { signal: controller.signal });
      if (mine !== generation) return;
      const user = answer.user;
      titleNode.textContent = `@${user.username}`;
      subtitle.textContent = user.display_name;
      document.title = `@${user.username} · Sentiment`;
      const items = answer.tweets.map(tweetItem);
      if (first) list.replaceChildren(...items);
      else list.append(...items);
      cursor = answer.next_cursor;
      setStale(answer);
      empty.hidden = list.children.length > 0;
      more.hidden = !cursor;
      end.hidden = !!cursor || list.children.length === 0;
    } catch (error) {
      if (error.name === "AbortError" || mine !== generation) return;
      if (refreshing) cursor = shownCursor;
      showNotice(errorBox, errorMessage(error, "load the tweets"),
        canRetry(error) ? () => load(refreshing || list.children.length === 0) : null);
      more.hidden = true;
    } finally {
      if (mine === generation) {
        loading = false;
        skeleton.hidden = true;
        list.removeAttribute("aria-busy");
      }
    }
  }

  // A click, or Enter or Space on the focused button.
  list.addEventListener("click", (event) => {
    const item = event.target.closest(".tweet");
    if (item) openThemeScreen(item);
  });
  more.addEventListener("click", () => load(false));
  refresh.addEventListener("click", () => load(true));

  return {
    open(name) {
      const cleaned = name.replace(/^@/, "");
      if (cleaned === username && list.children.length > 0) return;
      if (cleaned !== username) list.replaceChildren();
      username = cleaned;
      titleNode.textContent = `@${cleaned}`;
      subtitle.textContent = "";
      document.title = `@${cleaned} · Sentiment`;
      observer?.observe(sentinel);
      load(true);
    },
    close() {
      observer?.unobserve(sentinel);
      controller?.abort();
      generation++;
      username = null;
      list.replaceChildren();
    },
  };
})();

// MARK: - The full-screen theme

const themeScreen = $("#theme-screen");
let themeOpener = null;

function openThemeScreen(item) {
  const tweet = item.tweet;
  const themeName = tweet.theme?.name;
  const look = themeName ? THEMES[themeName] : UNSUPPORTED;
  themeScreen.dataset.themeScreen = themeName || "unsupported";
  $(".theme-emoji", themeScreen).textContent = look.emoji;
  $(".theme-label", themeScreen).textContent = look.label;
  $(".theme-text", themeScreen).textContent = tweet.text;
  $(".theme-date", themeScreen).textContent = fullDate(tweet.created_at);
  themeOpener = item;
  themeScreen.hidden = false;
  document.body.style.overflow = "hidden";
  themeScreen.focus();
}

function closeThemeScreen(restoreFocus = true) {
  if (themeScreen.hidden) return;
  themeScreen.hidden = true;
  delete themeScreen.dataset.themeScreen;
  document.body.style.overflow = "";
  if (restoreFocus && themeOpener?.isConnected) themeOpener.focus();
  themeOpener = null;
}

themeScreen.addEventListener("click", () => closeThemeScreen());
themeScreen.addEventListener("keydown", (event) => {
  if (event.key === "Enter" || event.key === " " || event.key === "Tab") {
    event.preventDefault();
    if (event.key !== "Tab") closeThemeScreen();
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !themeScreen.hidden) {
    event.preventDefault();
    closeThemeScreen();
  }
});

route();
