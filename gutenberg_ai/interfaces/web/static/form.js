// A position file as a form: built from the game's JSON Schema (the one the command
// line checks files against, GET /api/positions/schemas) and the file's data, for every
// game: an object is a group of fields, a list a row of fields with + and -, a number
// or a word an input, a choice of words (an enum: a step's kind, an ink) a menu, yes/no
// a checkbox. value() gives the JSON back, the same fields in the same order, so the
// form and the text are one file; nothing here knows a game's rules: the server's
// loader checks the file, and showProblems() puts each of its problems at its field
// ("players[0].guilders": the loader's own paths), all at once.

// -- the schema -------------------------------------------------------------------------
function lookup(root, ref) {
  if (!ref.startsWith("#/")) return {};
  return ref.slice(2).split("/").reduce((n, k) => (n ? n[k.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), root) || {};
}

// The alternatives a schema node allows, $refs followed, oneOf/anyOf/allOf flattened.
function branches(node, root, depth = 0) {
  if (!node || depth > 20) return [];
  if (node.$ref) return branches(lookup(root, node.$ref), root, depth + 1);
  const alts = node.oneOf || node.anyOf;
  if (alts) return alts.flatMap((n) => branches(n, root, depth + 1));
  if (node.allOf) {   // the parts' fields together
    const merged = { ...node };
    delete merged.allOf;
    for (const part of node.allOf.flatMap((n) => branches(n, root, depth + 1))) {
      Object.assign(merged, part, { properties: { ...(merged.properties || {}), ...(part.properties || {}) } });
    }
    return [merged];
  }
  return [node];
}

function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;     // string, boolean, object
}

function allows(branch, kind) {
  if (branch.enum) return branch.enum.some((v) => kindOf(v) === kind || (kind === "number" && kindOf(v) === "integer"));
  if (branch.const !== undefined) return kindOf(branch.const) === kind;
  if (!branch.type) return true;
  const types = [].concat(branch.type);
  return types.includes(kind) || (kind === "integer" && types.includes("number"));
}

// The branch describing `value` (an object's, a list's...), else an empty schema.
function pick(node, root, value) {
  const kind = kindOf(value);
  return branches(node, root).find((b) => allows(b, kind)) || {};
}

function propertySchema(node, key) {
  if (node.properties && node.properties[key]) return node.properties[key];
  for (const [pattern, s] of Object.entries(node.patternProperties || {})) if (new RegExp(pattern).test(key)) return s;
  return typeof node.additionalProperties === "object" ? node.additionalProperties : {};
}

function itemSchema(node, i) {
  if (node.prefixItems && i < node.prefixItems.length) return node.prefixItems[i];
  return typeof node.items === "object" ? node.items : {};
}

// -- the fields -------------------------------------------------------------------------
const el = (tag, cls, text) => {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined) n.textContent = text;
  return n;
};

// A field: {node (its element), read() (its JSON), fields (every field inside, with its
// path, for the problems)}.
function field(path, node, value, root) {
  const kind = kindOf(value);
  if (kind === "object") return objectField(path, pick(node, root, value), value, root);
  if (kind === "array") return listField(path, pick(node, root, value), value, root);
  return scalarField(path, node, value, root);
}

function objectField(path, schema, value, root) {
  const box = el("div", "form-object");
  const parts = [];
  for (const [key, v] of Object.entries(value)) {
    const sub = propertySchema(schema, key);
    const p = path ? `${path}.${key}` : key;
    const f = field(p, sub, v, root);
    const row = el("div", `form-row form-row-${kindOf(v)}`);
    const label = el("span", "form-label", key);
    const described = branches(sub, root).map((b) => b.description).find(Boolean);
    if (described) label.title = described;
    row.append(label, f.node);
    f.row = row;
    box.appendChild(row);
    parts.push([key, f]);
  }
  return {
    node: box, path,
    read: () => Object.fromEntries(parts.map(([k, f]) => [k, f.read()])),
    fields: () => parts.flatMap(([, f]) => [f, ...f.fields()]),
  };
}

function listField(path, schema, value, root) {
  const box = el("div", "form-list");
  let items = [];
  const draw = (values) => {
    box.replaceChildren();
    items = values.map((v, i) => field(`${path}[${i}]`, itemSchema(schema, i), v, root));
    const scalars = values.every((v) => kindOf(v) !== "object" && kindOf(v) !== "array");
    box.classList.toggle("form-inline", scalars);
    items.forEach((f, i) => {
      const item = el("div", "form-item");
      if (!scalars) item.appendChild(el("span", "form-index", `${i}`));
      item.appendChild(f.node);
      f.row = item;
      box.appendChild(item);
    });
    const more = el("button", "form-add", "+");
    more.type = "button";
    more.title = "one more (a copy of the last, or an empty one)";
    more.addEventListener("click", () => {
      const now = items.map((f) => f.read());
      const last = now.length ? now[now.length - 1] : "";
      now.push(kindOf(last) === "object" || kindOf(last) === "array" ? JSON.parse(JSON.stringify(last)) : null);
      draw(now);
    });
    const less = el("button", "form-remove", "-");
    less.type = "button";
    less.title = "remove the last";
    less.disabled = !values.length;
    less.addEventListener("click", () => draw(items.map((f) => f.read()).slice(0, -1)));
    box.append(more, less);
  };
  draw(value);
  return {
    node: box, path,
    read: () => items.map((f) => f.read()),
    fields: () => items.flatMap((f) => [f, ...f.fields()]),
  };
}

function scalarField(path, node, value, root) {
  const alts = branches(node, root);
  const kind = kindOf(value);
  const choices = [...new Set(alts.flatMap((b) => b.enum || (b.const !== undefined ? [b.const] : [])))]
    .filter((c) => kindOf(c) === "string" || kindOf(c) === "integer");
  const free = alts.filter((b) => b.enum === undefined && b.const === undefined && b.type !== "null");
  const yesNo = free.length > 0 && free.every((b) => [].concat(b.type || []).every((x) => x === "boolean" || x === "null"));
  const nullable = alts.length === 0 || alts.some((b) => allows(b, "null"));
  const numeric = alts.length === 0 ? kind === "integer" || kind === "number" : alts.some((b) => allows(b, "integer"));
  const wordy = alts.length === 0 ? kind === "string" : alts.some((b) => allows(b, "string"));
  let input;
  let read;
  if (kind === "boolean" || (kind === "null" && yesNo)) {
    input = el("input", "form-input");
    input.type = "checkbox";
    input.checked = value === true;
    read = () => input.checked;
  } else if (choices.length && free.length === 0) {
    input = el("select", "form-input");
    const shown = value === null ? "" : String(value);
    const options = (nullable ? [""] : []).concat(choices.map(String));
    if (!options.includes(shown)) options.push(shown);   // a value not in the list stays, for the loader to name
    for (const c of options) input.appendChild(new Option(c === "" ? "(none)" : c, c));
    input.value = shown;
    read = () => {
      if (input.value === "") return nullable ? null : "";
      const chosen = choices.find((c) => String(c) === input.value);
      return chosen !== undefined ? chosen : input.value;
    };
  } else {
    input = el("input", "form-input");
    input.type = "text";
    input.value = value === null ? "" : String(value);
    input.size = Math.max(3, Math.min(30, input.value.length + 1));
    if (numeric && !wordy) input.inputMode = "numeric";
    // As typed: a number where the field takes numbers, empty as null where it may be
    // null, else the words; a wrong value goes to the loader, which names this field.
    read = () => {
      const text = input.value.trim();
      if (text === "") return nullable ? null : "";
      if (numeric && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
      return input.value;
    };
  }
  input.dataset.path = path;
  input.setAttribute("aria-label", path);
  return { node: input, path, read, fields: () => [] };
}

// -- the form ---------------------------------------------------------------------------
export function positionForm(root, schema, data) {
  root.replaceChildren();
  const top = objectField("", pick(schema, schema, data), data, schema);
  top.node.classList.add("form-top");
  root.appendChild(top.node);
  const clear = () => {
    for (const n of root.querySelectorAll(".field-error")) n.remove();
    for (const n of root.querySelectorAll("[aria-invalid]")) n.removeAttribute("aria-invalid");
  };
  return {
    value: () => top.read(),
    // Each problem at its field: the deepest field whose path is the problem's or holds
    // it (a list's problem at the list). Returns the problems no field holds (a field
    // that is missing, the file as a whole).
    showProblems(problems) {
      clear();
      const fields = top.fields();
      const left = [];
      for (const pr of problems) {
        const where = pr.where || "";
        const at = fields.filter((f) => where === f.path || where.startsWith(`${f.path}.`) || where.startsWith(`${f.path}[`))
          .sort((a, b) => b.path.length - a.path.length)[0];
        if (!at || !where) { left.push(pr); continue; }
        const note = el("span", "field-error", where === at.path ? pr.reason : `${where.slice(at.path.length).replace(/^\./, "")}: ${pr.reason}`);
        note.dataset.where = where;
        note.setAttribute("role", "alert");
        (at.row || at.node).appendChild(note);
        at.node.setAttribute("aria-invalid", "true");
      }
      const first = root.querySelector(".field-error");
      if (first) first.scrollIntoView({ block: "nearest" });
      return left;
    },
    clear,
  };
}
