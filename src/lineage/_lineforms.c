/* Per-line work in C: the indexer's kinds, normal forms and their hashes for every line of a file,
 * and the matcher's statement scan, a line's tokens and its alignment form (statement_scan,
 * code_tokens, annotation_free; on the same tokeniser).
 *
 * This is an accelerator, not a second definition: lineage.index.normalise holds the reference
 * implementation in Python (TOKEN_RE, abstract_token, fold_whitespace, stable_hash) and the tests
 * check that both give identical arrays on generated lines and on real files. Character classes
 * are CPython's own (Py_UNICODE_ISSPACE, ISALNUM, ISDECIMAL, ISALPHA, ISDIGIT), which are exactly
 * what the `re` module uses for str patterns (\s, \w, \d), so Unicode names and spaces tokenise the
 * same way. Hashes are XXH3-64 of the UTF-8 bytes (lone surrogates encoded as "surrogatepass"
 * does), shifted right by one bit, as lineage.index.normalise.stable_hash computes them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

enum { BLANK = 0, CODE = 1, COMMENT = 2, DOCSTRING = 3 };

/* ---- a growable UTF-8 buffer ------------------------------------------------------------ */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} Buf;

static int buf_reserve(Buf *b, Py_ssize_t extra) {
    if (b->len + extra <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra) cap *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)cap);
    if (!data) { PyErr_NoMemory(); return -1; }
    b->data = data;
    b->cap = cap;
    return 0;
}

static int buf_char(Buf *b, Py_UCS4 c) {
    if (buf_reserve(b, 4) < 0) return -1;
    char *p = b->data + b->len;
    if (c < 0x80) { p[0] = (char)c; b->len += 1; }
    else if (c < 0x800) { p[0] = (char)(0xC0 | (c >> 6)); p[1] = (char)(0x80 | (c & 0x3F)); b->len += 2; }
    else if (c < 0x10000) {  /* surrogates too: what "surrogatepass" writes */
        p[0] = (char)(0xE0 | (c >> 12)); p[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        p[2] = (char)(0x80 | (c & 0x3F)); b->len += 3;
    } else {
        p[0] = (char)(0xF0 | (c >> 18)); p[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        p[2] = (char)(0x80 | ((c >> 6) & 0x3F)); p[3] = (char)(0x80 | (c & 0x3F)); b->len += 4;
    }
    return 0;
}

static int buf_ascii(Buf *b, const char *s, Py_ssize_t n) {
    if (buf_reserve(b, n) < 0) return -1;
    memcpy(b->data + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

static int64_t buf_hash(const Buf *b) {
    return (int64_t)(XXH3_64bits(b->len ? b->data : "", (size_t)b->len) >> 1);
}

/* ---- one line ---------------------------------------------------------------------------- */

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t len;
} Text;

#define AT(t, i) PyUnicode_READ((t)->kind, (t)->data, (i))

/* An ASCII character is answered here: CPython's ISALPHA/ISDECIMAL/ISDIGIT/ISNUMERIC are calls into
 * its Unicode tables (ISALNUM up to four of them) for every character, and for ASCII they hold
 * exactly for A-Z, a-z and 0-9. */
static inline int ascii_alpha(Py_UCS4 c) { return (Py_UCS4)((c | 32) - 'a') < 26; }
static inline int ascii_digit(Py_UCS4 c) { return (Py_UCS4)(c - '0') < 10; }
static int is_space(Py_UCS4 c) { return Py_UNICODE_ISSPACE(c); }
static int is_alpha(Py_UCS4 c) { return c < 128 ? ascii_alpha(c) : Py_UNICODE_ISALPHA(c); }
static int is_digit(Py_UCS4 c) { return c < 128 ? ascii_digit(c) : Py_UNICODE_ISDIGIT(c); }
static int is_word(Py_UCS4 c) {
    return c < 128 ? ascii_alpha(c) || ascii_digit(c) || c == '_' : Py_UNICODE_ISALNUM(c);
}
static int is_decimal(Py_UCS4 c) { return c < 128 ? ascii_digit(c) : Py_UNICODE_ISDECIMAL(c); }
static int is_prefix(Py_UCS4 c) { return c < 128 && c && strchr("rRbBuUfFtT", (int)c) != NULL; }

/* fold_whitespace(text[lo:hi]): runs of whitespace become one space, ends stripped. Returns the
 * number of words (what ``len(folded.split(" "))`` counts, 0 for an empty result). */
static Py_ssize_t fold(const Text *t, Py_ssize_t lo, Py_ssize_t hi, Buf *out) {
    Py_ssize_t words = 0;
    int in_word = 0;
    for (Py_ssize_t i = lo; i < hi; i++) {
        Py_UCS4 c = AT(t, i);
        if (is_space(c)) { in_word = 0; continue; }
        if (!in_word) {
            if (words > 0 && buf_char(out, ' ') < 0) return -1;
            words++;
            in_word = 1;
        }
        if (buf_char(out, c) < 0) return -1;
    }
    return words;
}

/* The kept names (keywords, soft keywords, self, cls) as UTF-8, set from Python at import. */
static char **kept = NULL;
static Py_ssize_t *kept_len = NULL;
static Py_ssize_t n_kept = 0;

static int is_kept(const Buf *b, Py_ssize_t start) {
    Py_ssize_t n = b->len - start;
    for (Py_ssize_t k = 0; k < n_kept; k++)
        if (kept_len[k] == n && memcmp(kept[k], b->data + start, (size_t)n) == 0) return 1;
    return 0;
}

/* Length of the token starting at i (text[i] is not whitespace), by TOKEN_RE's alternatives in
 * order: a (prefixed) one-line string, a name, a number, a multi-character operator, one char. */
static Py_ssize_t token_end(const Text *t, Py_ssize_t i, Py_ssize_t end) {
    Py_UCS4 c = AT(t, i);
    Py_ssize_t p = 0;
    while (p < 2 && i + p < end && is_prefix(AT(t, i + p))) p++;
    if (i + p < end) {
        Py_UCS4 q = AT(t, i + p);
        if (q == '\'' || q == '"') {
            Py_ssize_t j = i + p + 1;
            while (j < end) {
                Py_UCS4 d = AT(t, j);
                if (d == '\\') {
                    if (j + 1 < end && AT(t, j + 1) != '\n') { j += 2; continue; }
                    break;
                }
                if (d == q || d == '\n') break;
                j++;
            }
            if (j < end && AT(t, j) == q) j++;
            return j - i;
        }
    }
    if (is_word(c) && !is_decimal(c)) {
        Py_ssize_t j = i + 1;
        while (j < end && is_word(AT(t, j))) j++;
        return j - i;
    }
    if (is_decimal(c)) {
        Py_ssize_t j = i + 1;
        while (j < end && (is_word(AT(t, j)) || AT(t, j) == '.')) j++;
        return j - i;
    }
    Py_UCS4 n1 = i + 1 < end ? AT(t, i + 1) : 0;
    Py_UCS4 n2 = i + 2 < end ? AT(t, i + 2) : 0;
    if (c == '.' && i + 1 < end && is_decimal(n1)) {
        Py_ssize_t j = i + 2;
        while (j < end && is_word(AT(t, j))) j++;
        return j - i;
    }
    if ((c == '*' && n1 == '*') || (c == '/' && n1 == '/') || (c == '>' && n1 == '>') || (c == '<' && n1 == '<'))
        return (i + 2 < end && n2 == '=') ? 3 : 2;
    if ((c == '-' && n1 == '>') || (c == ':' && n1 == '=')) return 2;
    if (c == '.' && n1 == '.' && n2 == '.') return 3;
    if (c < 128 && c && strchr("-+*/%&|^@=!<>", (int)c) && i + 1 < end && n1 == '=') return 2;
    return 1;
}

/* normalise_code(text[lo:hi]) appended to norm and abstract (tokens joined by spaces, a space
 * before the first token when the buffer is not empty). Returns the token count or -1. */
static Py_ssize_t code_forms(const Text *t, Py_ssize_t lo, Py_ssize_t hi, Buf *norm, Buf *abs_) {
    Py_ssize_t count = 0;
    Py_ssize_t i = lo;
    while (i < hi) {
        Py_UCS4 c = AT(t, i);
        if (is_space(c)) { i++; continue; }
        Py_ssize_t n = token_end(t, i, hi);
        if (count > 0) {
            if (buf_char(norm, ' ') < 0 || buf_char(abs_, ' ') < 0) return -1;
        }
        Py_ssize_t start = norm->len;
        for (Py_ssize_t k = i; k < i + n; k++)
            if (buf_char(norm, AT(t, k)) < 0) return -1;
        /* abstract_token, exactly as lineage.index.normalise writes it */
        int is_string = c == '\'' || c == '"';
        if (!is_string && is_alpha(c)) {
            for (Py_ssize_t k = i + 1; k < i + n && k < i + 3; k++) {
                Py_UCS4 d = AT(t, k);
                if (d == '\'' || d == '"') { is_string = 1; break; }
            }
        }
        const char *cls = NULL;
        if (is_string) cls = "S";
        else if (is_alpha(c) || c == '_' || c > 127) cls = is_kept(norm, start) ? NULL : "I";
        else if (is_digit(c) || (c == '.' && n > 1 && is_digit(AT(t, i + 1)))) cls = "N";
        if (cls) {
            if (buf_ascii(abs_, cls, 1) < 0) return -1;
        } else {
            if (buf_reserve(abs_, norm->len - start) < 0) return -1;
            memcpy(abs_->data + abs_->len, norm->data + start, (size_t)(norm->len - start));
            abs_->len += norm->len - start;
        }
        count++;
        i += n;
    }
    return count;
}

static int sep(Buf *b) { return b->len > 0 ? buf_char(b, ' ') : 0; }

/* Line ``row`` of the list ``lines`` as text, with the bounds of its stripped part in lo..hi
 * (Python's str.strip: Py_UNICODE_ISSPACE). Returns -1 with TypeError when it is not a str. */
static int stripped_line(PyObject *lines, Py_ssize_t row, const char *who, Text *t, Py_ssize_t *lo, Py_ssize_t *hi) {
    PyObject *line = PyList_GET_ITEM(lines, row);
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "%s: lines must be str", who);
        return -1;
    }
    *t = (Text){PyUnicode_KIND(line), PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line)};
    *lo = 0;
    *hi = t->len;
    while (*lo < *hi && is_space(AT(t, *lo))) (*lo)++;
    while (*hi > *lo && is_space(AT(t, *hi - 1))) (*hi)--;
    return 0;
}

/* fill(lines, doc, inside, comment, tail, head, kinds, h_norm, h_abs, ntok)
 *
 * ``lines``: list of str. ``doc``/``inside``: uint8 per row (docstring rows; rows strictly inside a
 * multi-line string). ``comment``/``tail``/``head``: int32 per row, -1 for none (character column
 * of a comment; where a multi-line string ends on this row; where one starts). Outputs: uint8
 * kinds, int64 h_norm and h_abs, uint16 ntok, one entry per row, written in place. */
static PyObject *fill(PyObject *self, PyObject *args) {
    PyObject *lines;
    Py_buffer doc, inside, comment, tail, head, kinds, h_norm, h_abs, ntok;
    if (!PyArg_ParseTuple(args, "O!y*y*y*y*y*w*w*w*w*", &PyList_Type, &lines, &doc, &inside, &comment, &tail,
                          &head, &kinds, &h_norm, &h_abs, &ntok))
        return NULL;
    PyObject *result = NULL;
    Buf norm = {0}, abs_ = {0};
    Py_ssize_t n = PyList_GET_SIZE(lines);
    if (doc.len < n || inside.len < n || comment.len < n * 4 || tail.len < n * 4 || head.len < n * 4 ||
        kinds.len < n || h_norm.len < n * 8 || h_abs.len < n * 8 || ntok.len < n * 2) {
        PyErr_SetString(PyExc_ValueError, "fill: an array is shorter than the list of lines");
        goto done;
    }
    const uint8_t *doc_p = doc.buf, *inside_p = inside.buf;
    const int32_t *comment_p = comment.buf, *tail_p = tail.buf, *head_p = head.buf;
    uint8_t *kinds_p = kinds.buf;
    int64_t *norm_p = h_norm.buf, *abs_p = h_abs.buf;
    uint16_t *ntok_p = ntok.buf;
    for (Py_ssize_t row = 0; row < n; row++) {
        Text t;
        Py_ssize_t lo, hi;
        if (stripped_line(lines, row, "fill", &t, &lo, &hi) < 0) goto done;
        if (lo == hi) continue;  /* blank: kind 0, hashes 0 */
        int kind = doc_p[row] ? DOCSTRING
                   : (comment_p[row] == lo && !inside_p[row]) ? COMMENT : CODE;
        kinds_p[row] = (uint8_t)kind;
        norm.len = abs_.len = 0;
        if (kind != CODE || inside_p[row]) {
            Py_ssize_t words = fold(&t, lo, hi, &norm);
            if (words < 0) goto done;
            norm_p[row] = abs_p[row] = buf_hash(&norm);
            ntok_p[row] = (uint16_t)(words < 65535 ? words : 65535);
            continue;
        }
        /* _normalise_code_line: the code minus its comment, around multi-line string pieces */
        Py_ssize_t len = t.len;
        Py_ssize_t end = comment_p[row] >= 0 ? comment_p[row] : len;
        Py_ssize_t start = 0, count = 0;
        if (end > len) end = len;
        if (tail_p[row] >= 0) {
            Py_ssize_t cut = tail_p[row] < len ? tail_p[row] : len;
            if (fold(&t, 0, cut, &norm) < 0) goto done;
            if (buf_ascii(&abs_, "S", 1) < 0) goto done;
            count += 1;
            start = tail_p[row];
        }
        int opens = head_p[row] >= 0 && head_p[row] >= start;
        Py_ssize_t code_end = opens ? head_p[row] : end;
        if (code_end > end) code_end = end;
        Py_ssize_t c_lo = start < len ? start : len, c_hi = code_end < len ? code_end : len;
        if (c_hi > c_lo) {
            Buf piece_norm = {0}, piece_abs = {0};
            Py_ssize_t k = code_forms(&t, c_lo, c_hi, &piece_norm, &piece_abs);
            int failed = k < 0;
            if (!failed && piece_norm.len) failed = sep(&norm) < 0 || buf_ascii(&norm, piece_norm.data, piece_norm.len) < 0;
            if (!failed && piece_abs.len) failed = sep(&abs_) < 0 || buf_ascii(&abs_, piece_abs.data, piece_abs.len) < 0;
            PyMem_Free(piece_norm.data);
            PyMem_Free(piece_abs.data);
            if (failed) goto done;
            count += k;
        }
        if (opens) {
            Buf piece = {0};
            Py_ssize_t h = head_p[row] < len ? head_p[row] : len;
            int failed = fold(&t, h, len, &piece) < 0;
            if (!failed && piece.len) failed = sep(&norm) < 0 || buf_ascii(&norm, piece.data, piece.len) < 0;
            if (!failed) failed = sep(&abs_) < 0 || buf_ascii(&abs_, "S", 1) < 0;
            PyMem_Free(piece.data);
            if (failed) goto done;
            count += 1;
        }
        norm_p[row] = buf_hash(&norm);
        abs_p[row] = buf_hash(&abs_);
        ntok_p[row] = (uint16_t)(count < 65535 ? count : 65535);
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(norm.data);
    PyMem_Free(abs_.data);
    PyBuffer_Release(&doc); PyBuffer_Release(&inside); PyBuffer_Release(&comment); PyBuffer_Release(&tail);
    PyBuffer_Release(&head); PyBuffer_Release(&kinds); PyBuffer_Release(&h_norm); PyBuffer_Release(&h_abs);
    PyBuffer_Release(&ntok);
    return result;
}

/* statement_scan(lines, kinds, out): statement numbers, as
 * lineage.match.statements.statement_ids_reference computes them before its length limit (that
 * function is the reference; the tests hold both to identical arrays). ``kinds``: uint8 per row (CODE = 1 is the only kind read); ``out``: int64 per
 * row, written in place, -1 for a line that is not code. A code line starts a new statement when
 * no bracket is open and the line before did not end with a backslash, or when its stripped text
 * starts a definition (``def ``, ``class ``, ``async def ``, ``@``). Brackets are counted on the
 * tokens before a ``#`` token (token_end: a bracket inside a one-line string is not one); a closer
 * never takes the depth below zero. */
static int starts_with(const Text *t, Py_ssize_t lo, Py_ssize_t hi, const char *prefix) {
    Py_ssize_t n = (Py_ssize_t)strlen(prefix);
    if (hi - lo < n) return 0;
    for (Py_ssize_t k = 0; k < n; k++)
        if (AT(t, lo + k) != (Py_UCS4)(unsigned char)prefix[k]) return 0;
    return 1;
}

static PyObject *statement_scan(PyObject *self, PyObject *args) {
    PyObject *lines;
    Py_buffer kinds, out;
    if (!PyArg_ParseTuple(args, "O!y*w*", &PyList_Type, &lines, &kinds, &out)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = PyList_GET_SIZE(lines);
    if (kinds.len < n || out.len < n * 8) {
        PyErr_SetString(PyExc_ValueError, "statement_scan: an array is shorter than the list of lines");
        goto done;
    }
    const uint8_t *kinds_p = kinds.buf;
    int64_t *out_p = out.buf;
    int64_t current = -1;
    Py_ssize_t depth = 0;
    int continued = 0;
    for (Py_ssize_t row = 0; row < n; row++) {
        out_p[row] = -1;
        if (kinds_p[row] != CODE) continue;
        Text t;
        Py_ssize_t lo, hi;
        if (stripped_line(lines, row, "statement_scan", &t, &lo, &hi) < 0) goto done;
        if ((depth == 0 && !continued) || starts_with(&t, lo, hi, "def ") || starts_with(&t, lo, hi, "class ") ||
            starts_with(&t, lo, hi, "async def ") || starts_with(&t, lo, hi, "@")) {
            current++;
            depth = 0;
        }
        out_p[row] = current;
        for (Py_ssize_t i = lo; i < hi;) {
            Py_UCS4 c = AT(&t, i);
            if (is_space(c)) { i++; continue; }
            Py_ssize_t len = token_end(&t, i, hi);
            if (len == 1) {
                if (c == '#') break;
                if (c == '(' || c == '[' || c == '{') depth++;
                else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
            }
            i += len;
        }
        continued = hi > lo && AT(&t, hi - 1) == '\\';
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&out);
    return result;
}

/* code_tokens(text, unify_quotes): TOKEN_RE.findall(text) up to its first "#" token, as a tuple
 * (lineage.match.statements.code_tokens_reference is the reference); with unify_quotes, every "'"
 * of a token becomes '"' (statements.line_tokens). The matcher asks for a line's tokens in many rules. */
static PyObject *code_tokens(PyObject *self, PyObject *args) {
    PyObject *line;
    int unify;
    if (!PyArg_ParseTuple(args, "Up", &line, &unify)) return NULL;
    Text t = {PyUnicode_KIND(line), PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line)};
    PyObject *tokens = PyList_New(0);
    if (!tokens) return NULL;
    for (Py_ssize_t i = 0; i < t.len;) {
        Py_UCS4 c = AT(&t, i);
        if (is_space(c)) { i++; continue; }
        Py_ssize_t len = token_end(&t, i, t.len);
        if (len == 1 && c == '#') break;
        PyObject *token = PyUnicode_Substring(line, i, i + len);
        Py_ssize_t quote = token && unify ? PyUnicode_FindChar(token, '\'', 0, len, 1) : -1;
        if (quote == -2) Py_CLEAR(token);  /* FindChar's error (set): never on these bounds, but not lost */
        if (quote >= 0) {
            PyObject *single = PyUnicode_FromOrdinal('\''), *dbl = PyUnicode_FromOrdinal('"');
            PyObject *swapped = single && dbl ? PyUnicode_Replace(token, single, dbl, -1) : NULL;
            Py_XDECREF(single);
            Py_XDECREF(dbl);
            Py_DECREF(token);
            token = swapped;
        }
        if (!token || PyList_Append(tokens, token) < 0) { Py_XDECREF(token); Py_DECREF(tokens); return NULL; }
        Py_DECREF(token);
        i += len;
    }
    PyObject *result = PyList_AsTuple(tokens);
    Py_DECREF(tokens);
    return result;
}

/* ---- annotation_free: a code line's tokens without type annotations ---------------------- */

/* A token of a line held in a Py_UCS4 buffer (its characters, quotes unified). */
typedef struct {
    Py_ssize_t start, len;
} Tok;

static int tok_is(const Py_UCS4 *b, const Tok *k, const char *ascii) {
    Py_ssize_t n = (Py_ssize_t)strlen(ascii);
    if (k->len != n) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (b[k->start + i] != (Py_UCS4)(unsigned char)ascii[i]) return 0;
    return 1;
}
static int tok_opener(const Py_UCS4 *b, const Tok *k) {
    return k->len == 1 && (b[k->start] == '(' || b[k->start] == '[' || b[k->start] == '{');
}
static int tok_closer(const Py_UCS4 *b, const Tok *k) {
    return k->len == 1 && (b[k->start] == ')' || b[k->start] == ']' || b[k->start] == '}');
}

/* statements._is_name: a letter or "_" first, every character alphanumeric or "_", no keyword
 * (``keywords``: a set of str, keyword.kwlist). 1, 0, or -1 with an exception set. */
static int tok_name(const Py_UCS4 *b, const Tok *k, PyObject *keywords) {
    Py_UCS4 c = b[k->start];
    if (!(is_alpha(c) || c == '_')) return 0;
    for (Py_ssize_t i = k->start; i < k->start + k->len; i++)
        if (!is_word(b[i])) return 0;
    PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b + k->start, k->len);
    if (!token) return -1;
    int found = PySet_Contains(keywords, token);
    Py_DECREF(token);
    return found < 0 ? -1 : !found;
}

/* statements._annotated_target_end: index of the ":" after a simple assignment target opening
 * the line, -1 for none, -2 on error. */
static Py_ssize_t target_end(const Py_UCS4 *b, const Tok *tok, Py_ssize_t n, PyObject *keywords) {
    int colon = 0;
    for (Py_ssize_t k = 0; k < n && !colon; k++) colon = tok_is(b, &tok[k], ":");
    if (!colon) return -1;
    int name = tok_name(b, &tok[0], keywords);
    if (name <= 0) return name < 0 ? -2 : -1;
    Py_ssize_t k = 1;
    while (k < n) {
        if (tok_is(b, &tok[k], ".") && k + 1 < n) {
            name = tok_name(b, &tok[k + 1], keywords);
            if (name < 0) return -2;
            if (name) { k += 2; continue; }
            break;
        }
        if (tok_is(b, &tok[k], "[")) {
            Py_ssize_t depth = 0;
            while (k < n) {
                depth += tok_is(b, &tok[k], "[");
                depth -= tok_is(b, &tok[k], "]");
                k++;
                if (depth == 0) break;
            }
            continue;
        }
        break;
    }
    return k < n && tok_is(b, &tok[k], ":") ? k : -1;
}

/* annotation_free(text, keywords): lineage.match.statements.annotation_free_reference(text), the
 * definition: the tokens of text.strip() up to a comment (TOKEN_RE's, "'" -> '"'), without a final
 * ",", without type annotations (statements.strip_annotations: a def's parameter and return
 * annotations, an annotated assignment's), joined by spaces. ``keywords``: a set of str
 * (keyword.kwlist), which no assignment target is. The fill's alignment keys ask it of nearly
 * every line of a paired file (lineage.match.fill_lines.align_form). */
static PyObject *annotation_free(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyAnySet_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "annotation_free: (str, set of keywords)");
        return NULL;
    }
    PyObject *line = args[0], *keywords = args[1];
    Text t = {PyUnicode_KIND(line), PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line)};
    Py_ssize_t lo = 0, hi = t.len;
    while (lo < hi && is_space(AT(&t, lo))) lo++;
    while (hi > lo && is_space(AT(&t, hi - 1))) hi--;
    Py_ssize_t size = hi - lo;
    /* the tokens' characters (at most ``size``), then their join: as many and a space between two */
    Py_UCS4 *chars = PyMem_Malloc(sizeof(Py_UCS4) * (size_t)(3 * size + 1));
    Tok *tok = PyMem_Malloc(sizeof(Tok) * (size_t)(size + 1));
    char *keep = PyMem_Malloc((size_t)(size + 1));
    PyObject *result = NULL;
    if (!chars || !tok || !keep) { PyErr_NoMemory(); goto done; }
    Py_ssize_t n = 0, used = 0;
    for (Py_ssize_t i = lo; i < hi;) {
        Py_UCS4 c = AT(&t, i);
        if (is_space(c)) { i++; continue; }
        Py_ssize_t len = token_end(&t, i, hi);
        if (len == 1 && c == '#') break;
        tok[n] = (Tok){used, len};
        for (Py_ssize_t k = i; k < i + len; k++) {
            Py_UCS4 d = AT(&t, k);
            chars[used++] = d == '\'' ? '"' : d;
        }
        n++;
        i += len;
    }
    if (n > 0 && tok_is(chars, &tok[n - 1], ",")) n--;  /* without_trailing_comma */
    for (Py_ssize_t k = 0; k < n; k++) keep[k] = 1;
    Py_ssize_t start = n > 0 && tok_is(chars, &tok[0], "async") ? 1 : 0;
    if (start < n && tok_is(chars, &tok[start], "def")) {
        /* _strip_def */
        Py_ssize_t depth = 0;
        int skipping = 0, params_done = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            const Tok *token = &tok[k];
            if (params_done && tok_is(chars, token, "->")) {
                Py_ssize_t end = tok_is(chars, &tok[n - 1], ":") ? n - 1 : n;
                for (Py_ssize_t j = k; j < end; j++) keep[j] = 0;
                break;
            }
            if (tok_opener(chars, token)) depth++;
            else if (tok_closer(chars, token)) {
                depth--;
                if (depth == 0) { skipping = 0; params_done = 1; }
            }
            if (skipping && depth == 1 && (tok_is(chars, token, ",") || tok_is(chars, token, "="))) skipping = 0;
            if (!skipping && depth == 1 && tok_is(chars, token, ":") && !params_done) skipping = 1;
            if (skipping) keep[k] = 0;
        }
    } else if (n > 0) {
        Py_ssize_t colon = target_end(chars, tok, n, keywords);
        if (colon == -2) goto done;
        if (colon >= 0) {
            /* _annotation_end with the stop "=" */
            Py_ssize_t depth = 0, end = -1;
            for (Py_ssize_t k = colon + 1; k < n; k++) {
                if (tok_opener(chars, &tok[k])) depth++;
                else if (tok_closer(chars, &tok[k])) depth--;
                else if (depth == 0 && tok_is(chars, &tok[k], "=")) { end = k; break; }
            }
            if (end >= 0)
                for (Py_ssize_t k = colon; k < end; k++) keep[k] = 0;
        }
    }
    /* the kept tokens joined by spaces, written after the tokens' characters */
    Py_UCS4 *out = chars + used;
    Py_ssize_t m = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!keep[k]) continue;
        if (m > 0) out[m++] = ' ';
        memcpy(out + m, chars + tok[k].start, sizeof(Py_UCS4) * (size_t)tok[k].len);
        m += tok[k].len;
    }
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, m);
done:
    PyMem_Free(chars);
    PyMem_Free(tok);
    PyMem_Free(keep);
    return result;
}

/* increasing_pairs(t, u): lineage.match.fill_lines.increasing_pairs_reference(t, u), its definition:
 * a longest chain of (t[k], u[k]) increasing in both, for t strictly increasing, by patience sorting
 * (each u[k] placed at bisect_left of the chains' tails), as a list of tuples of the lists' own
 * items. Two lists of one length of ints that fit 64 bits; anything else is NotImplemented (the
 * caller runs the reference). Every rule of the fill anchors a file pair on it. */
static PyObject *increasing_pairs(PyObject *self, PyObject *args) {
    PyObject *t, *u;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &t, &PyList_Type, &u)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(u);
    if (PyList_GET_SIZE(t) != n) Py_RETURN_NOTIMPLEMENTED;
    long long *value = PyMem_Malloc(sizeof(long long) * (size_t)(n + 1));
    long long *tail_u = PyMem_Malloc(sizeof(long long) * (size_t)(n + 1));
    Py_ssize_t *tails = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    Py_ssize_t *back = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(n + 1));
    PyObject *result = NULL;
    if (!value || !tail_u || !tails || !back) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyList_GET_ITEM(u, k);
        int overflow = 0;
        value[k] = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
        if (!PyLong_Check(item) || overflow || (value[k] == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            result = Py_NewRef(Py_NotImplemented);
            goto done;
        }
    }
    Py_ssize_t length = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t lo = 0, hi = length;  /* bisect_left(tail_u, value[k]) */
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (tail_u[mid] < value[k]) lo = mid + 1;
            else hi = mid;
        }
        back[k] = lo > 0 ? tails[lo - 1] : -1;
        tails[lo] = k;
        tail_u[lo] = value[k];
        if (lo == length) length++;
    }
    result = PyList_New(length);
    if (!result) goto done;
    Py_ssize_t k = length ? tails[length - 1] : -1;
    for (Py_ssize_t at = length - 1; at >= 0; at--, k = back[k]) {
        PyObject *pair = PyTuple_Pack(2, PyList_GET_ITEM(t, k), PyList_GET_ITEM(u, k));
        if (!pair) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, at, pair);
    }
done:
    PyMem_Free(value);
    PyMem_Free(tail_u);
    PyMem_Free(tails);
    PyMem_Free(back);
    return result;
}

static void free_kept(void) {
    for (Py_ssize_t k = 0; k < n_kept; k++) PyMem_Free(kept[k]);
    PyMem_Free(kept);
    PyMem_Free(kept_len);
    kept = NULL;
    kept_len = NULL;
    n_kept = 0;
}

/* set_kept_names(names): the names the abstract form keeps (keywords, soft keywords, self, cls). */
static PyObject *set_kept_names(PyObject *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "set_kept_names: a sequence of str");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    free_kept();
    kept = PyMem_Calloc((size_t)(n ? n : 1), sizeof(char *));
    kept_len = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    if (!kept || !kept_len) { Py_DECREF(seq); free_kept(); return PyErr_NoMemory(); }
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t size;
        const char *utf8 = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(seq, k), &size);
        if (!utf8) { Py_DECREF(seq); free_kept(); return NULL; }
        kept[k] = PyMem_Malloc((size_t)(size ? size : 1));
        if (!kept[k]) { Py_DECREF(seq); free_kept(); return PyErr_NoMemory(); }
        memcpy(kept[k], utf8, (size_t)size);
        kept_len[k] = size;
        n_kept = k + 1;
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"fill", fill, METH_VARARGS, "Kinds, hashes of the normal forms and token counts of every line."},
    {"code_tokens", code_tokens, METH_VARARGS, "A code line's tokens up to a comment, quotes unified or not."},
    {"statement_scan", statement_scan, METH_VARARGS, "Statement numbers of code lines (brackets, backslashes, defs)."},
    {"annotation_free", (PyCFunction)(void (*)(void))annotation_free, METH_FASTCALL,
     "A code line's tokens without type annotations and a trailing comma, joined by spaces."},
    {"increasing_pairs", increasing_pairs, METH_VARARGS, "A longest chain of pairs increasing on both sides."},
    {"set_kept_names", set_kept_names, METH_O, "Set the names the abstract form keeps as they are."},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *unused) { free_kept(); }

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "lineage._lineforms", NULL, -1, methods,
                                    NULL, NULL, NULL, module_free};

PyMODINIT_FUNC PyInit__lineforms(void) { return PyModule_Create(&module); }
