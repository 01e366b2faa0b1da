// The page's language. Every text a page shows goes through t(key, fallback, params): the
// key is looked up in the texts the server sends for the chosen language (GET /i18n/web.json,
// built from the gettext domain "web"); a key the catalogue does not have yet shows its
// English fallback, so new code can call window.t before a translator has seen it.
//
// The language: the switch's choice (a cookie, so the server's error messages follow it, and
// localStorage, so it survives a cleared cookie), else the browser's Accept-Language.
// Other modules import this one first: its top-level await means they run once the texts
// are here.

const COOKIE = "bito_lang";
const STORE = "bito:lang";
let bundle = { language: "en", texts: {}, variants: {}, languages: { en: "English" } };

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (params[name] === undefined || params[name] === null ? whole : String(params[name])));
}

export function t(key, fallback = key, params = undefined) {
  const said = bundle.texts[key];
  return fill(said === undefined || said === "" ? fallback : said, params);
}

// A text about a count: the key's form for n in the page's language ("key.one", "key.few",
// "key.many", "key.other", as Intl.PluralRules names them), {n} filled in.
export function tn(key, n, fallbackOne, fallbackOther, params = {}) {
  let form = "other";
  try { form = new Intl.PluralRules(bundle.language).select(n); } catch (e) { /* "other" */ }
  const fallback = n === 1 ? fallbackOne : fallbackOther;
  return t(`${key}.${form}`, t(`${key}.other`, fallback, { ...params, n }), { ...params, n });
}

// A text the page shows only where its language has it: the catalogue's, else the English
// itself on an English page, else "" (a family's own phrase a translator has not seen yet
// stays off a Russian page rather than showing there in English).
export function said(key, english, params = undefined) {
  const found = bundle.texts[key];
  if (found) return fill(found, params);
  return bundle.language === "en" ? fill(english, params) : "";
}

export function language() { return bundle.language; }

// A game's or house rule's name in the page's language (the rules catalogue's own Russian
// names, else the message catalogue's), else the fallback.
export function variantName(id, fallback = id) { return bundle.variants[id] || fallback; }

// A game's or house rule's one-line summary in the page's language (the terminal's
// catalogue has one for every entry), else the fallback.
export function summaryOf(id, fallback = "") { return (bundle.summaries || {})[id] || fallback; }

// A game's house rules (games.describe: English lines and, beside them, what each one is by
// id), one line each in the page's language; a line the catalogue cannot name stays as sent.
export function houseRules(game) {
  const ids = game.rule_ids || [];
  return (game.rules || []).map((english, i) => {
    const part = ids[i] || {};
    if (part.variant) return variantName(part.variant, english);
    const help = part.option && (bundle.options || {})[part.option];
    // the rule in words, never its key, nor the catalogue's paragraph it comes from ("(B1)")
    if (help) return `${help.replace(/\s*\([A-Z]{1,2}\d+[a-z]?(?:[,;]\s*[A-Z]{1,2}\d+[a-z]?)*\)/g, "")}: ${part.value}`;
    // another family's option ("shed.rounds = 1"): its last word and value, never the key
    const own = /^[a-z_]+\.([a-z_]+) = (.+)$/.exec(english);
    if (own) {
      return bundle.language === "en" ? `${own[1].replace(/_/g, " ")}: ${own[2]}`
        : t("table.house_rule_value", "house rule: {value}", { value: own[2] });
    }
    return english.replace(/^[a-z_]+\.[a-z_]+ = /, "");
  });
}

function cookieLanguage() {
  const found = document.cookie.split(";").map((c) => c.trim().split("="))
    .find(([name]) => name === COOKIE);
  return found ? found[1] : null;
}

export function setLanguage(code) {
  localStorage.setItem(STORE, code);
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
  location.reload();
}

// Static texts of the page: an element with data-i18n="key" gets the key's text (its English
// text in the HTML is the fallback); data-i18n-attr="aria-label:key;title:key2" does the same
// for attributes.
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n, node.textContent.trim());
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key, node.getAttribute(attr) || key));
    }
  }
}

function languageSwitch() {
  const header = document.querySelector("header");
  if (!header || document.getElementById("lang-switch")) return;
  const pick = document.createElement("select");
  pick.id = "lang-switch";
  pick.className = "lang-switch";
  pick.setAttribute("aria-label", t("page.language", "Language"));
  for (const [code, name] of Object.entries(bundle.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    pick.append(option);
  }
  pick.value = bundle.language;
  pick.addEventListener("change", () => setLanguage(pick.value));
  header.append(pick);
}

async function load() {
  // A choice kept in localStorage but whose cookie is gone (cleared, expired): set it again
  // before asking, so the texts and the server's errors agree.
  const stored = localStorage.getItem(STORE);
  if (stored && cookieLanguage() !== stored) {
    document.cookie = `${COOKIE}=${stored}; path=/; max-age=31536000; SameSite=Lax`;
  }
  try {
    const res = await fetch("/i18n/web.json");
    if (res.ok) bundle = await res.json();
  } catch (e) {
    // No texts: the page keeps its English.
  }
  document.documentElement.lang = bundle.language;
  translatePage();
  languageSwitch();
}

window.t = t;
window.tn = tn;
window.bitoI18n = { t, tn, language, variantName, summaryOf, houseRules, setLanguage,
                    translatePage };
await load();
