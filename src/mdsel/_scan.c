/* mdsel._scan: the scan of mdsel.parse and the byte counts of mdsel.nesting, compiled.
 *
 * Optional: built when a C compiler is at hand (hatch_build.py), and answering exactly as the
 * Python code it stands in for (mdsel.parse.scan_python, nesting's counts), which a test holds
 * it to on real documents, the CommonMark examples and generated ones. Why it exists: the
 * Python loop looks at each of the parser's events (tens of thousands per megabyte) and costs
 * half as much again as the parser itself; here each event costs a dict look-up or two.
 *
 * Nothing here trusts its input's shape: every object from the parser is type-checked before
 * use (a surprise is a TypeError, never a crash), and offsets are checked against the buffer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A growable column of integers, 1, 4 or 8 bytes wide, given back as bytes for array.frombytes. */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
    int width;
} Column;

static void
column_set(Column *column, Py_ssize_t index, int64_t value)
{
    switch (column->width) {
    case 1: ((uint8_t *)column->data)[index] = (uint8_t)value; break;
    case 4: ((uint32_t *)column->data)[index] = (uint32_t)value; break;
    default: ((int64_t *)column->data)[index] = value;
    }
}

static int
column_push(Column *column, int64_t value)
{
    if (column->len == column->cap) {
        Py_ssize_t cap = column->cap ? column->cap * 2 : 64;
        char *data = PyMem_Realloc(column->data, (size_t)cap * (size_t)column->width);
        if (data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        column->data = data;
        column->cap = cap;
    }
    column_set(column, column->len++, value);
    return 0;
}

static int64_t
column_get(const Column *column, Py_ssize_t index)
{
    switch (column->width) {
    case 1: return ((const uint8_t *)column->data)[index];
    case 4: return ((const uint32_t *)column->data)[index];
    default: return ((const int64_t *)column->data)[index];
    }
}

static PyObject *
column_bytes(const Column *column)
{
    return PyBytes_FromStringAndSize(column->data ? column->data : "",
                                     column->len * column->width);
}

/* Frees the column's items once they are copied out (a document of millions of blocks holds
 * one copy at a time, not every column twice). */
static void
column_release(Column *column)
{
    PyMem_Free(column->data);
    column->data = NULL;
    column->len = column->cap = 0;
}

/* The column as `make(typecode, bytes)`: an array.array, made here so that the caller makes
 * none of its own (a dozen Python calls per document, a share of a small file's cost). The
 * column is released. */
static PyObject *
column_array(PyObject *make, PyObject *typecode, Column *column)
{
    PyObject *raw = column_bytes(column);
    column_release(column);
    if (raw == NULL)
        return NULL;
    PyObject *array = PyObject_CallFunctionObjArgs(make, typecode, raw, NULL);
    Py_DECREF(raw);
    return array;
}

/* A column of one-byte values as a bytearray; the column is released. */
static PyObject *
column_bytearray(Column *column)
{
    PyObject *bytes = PyByteArray_FromStringAndSize(column->data ? column->data : "",
                                                    column->len);
    column_release(column);
    return bytes;
}

/* Columns of one typecode whose items fit in SMALL_COLUMNS bytes in all are copied into one
 * array and handed out as its slices: a slice is made in C, where make() is a Python-level call
 * that parses its arguments, a share of a small file's cost when a dozen columns are made. Past
 * that size each column is made on its own, so that a document of millions of blocks never holds
 * its columns twice. `out[i]` gets a new reference; the columns are released. */
enum { SMALL_COLUMNS = 1 << 16 };

static int
columns_arrays(PyObject *make, PyObject *typecode, Column **columns, Py_ssize_t count,
               PyObject **out)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        total += columns[i]->len * columns[i]->width;
    if (total > SMALL_COLUMNS) {
        for (Py_ssize_t i = 0; i < count; i++)
            if ((out[i] = column_array(make, typecode, columns[i])) == NULL)
                return -1;
        return 0;
    }
    PyObject *raw = PyBytes_FromStringAndSize(NULL, total);
    if (raw == NULL)
        return -1;
    char *at = PyBytes_AS_STRING(raw);
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t size = columns[i]->len * columns[i]->width;
        if (size)
            memcpy(at, columns[i]->data, (size_t)size);
        at += size;
    }
    PyObject *whole = PyObject_CallFunctionObjArgs(make, typecode, raw, NULL);
    Py_DECREF(raw);
    if (whole == NULL)
        return -1;
    Py_ssize_t first = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t length = columns[i]->len;
        column_release(columns[i]);
        if ((out[i] = PySequence_GetSlice(whole, first, first + length)) == NULL) {
            Py_DECREF(whole);
            return -1; /* the caller releases those made */
        }
        first += length;
    }
    Py_DECREF(whole);
    return 0;
}

/* A tuple of `count` new references, which it takes: NULL, each of them released, if one of
 * them is NULL (its maker failed) or the tuple cannot be made. Py_BuildValue would do the same
 * after parsing a format string, a share of a small file's scan. */
static PyObject *
tuple_of(PyObject **items, Py_ssize_t count)
{
    PyObject *tuple = NULL;
    for (Py_ssize_t i = 0; i < count; i++)
        if (items[i] == NULL)
            goto fail;
    if ((tuple = PyTuple_New(count)) == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < count; i++)
        PyTuple_SET_ITEM(tuple, i, items[i]);
    return tuple;
fail:
    for (Py_ssize_t i = 0; i < count; i++)
        Py_XDECREF(items[i]);
    return NULL;
}

enum { LIST_CODE = 2, QUOTE_CODE = 4, KIND_COUNT = 5 };

/* The open lists and blockquotes: their byte ends, block indices and (a list's) the end of its
 * last item so far (shifted; 0 before any), innermost last. */
typedef struct {
    int64_t *ends, *indices, *item_ends;
    Py_ssize_t len, cap;
} Stack;

static int
stack_push(Stack *stack, int64_t end, int64_t index)
{
    if (stack->len == stack->cap) {
        Py_ssize_t cap = stack->cap ? stack->cap * 2 : 16;
        int64_t **arrays[] = {&stack->ends, &stack->indices, &stack->item_ends};
        for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
            int64_t *grown = PyMem_Realloc(*arrays[i], (size_t)cap * sizeof **arrays[i]);
            if (grown == NULL) {
                PyErr_NoMemory();
                return -1;
            }
            *arrays[i] = grown;
        }
        stack->cap = cap;
    }
    stack->ends[stack->len] = end;
    stack->item_ends[stack->len] = 0;
    stack->indices[stack->len++] = index;
    return 0;
}

/* Closes the containers that end at or before `start`: their last descendant is `last_index`.
 * A list's range can run on over link reference definitions after its last item (pulldown-cmark
 * ends it where the last one starts); its items' do not, so a closed list ends where its last
 * item does (as scan_events does after its loop). */
static void
stack_close(Stack *stack, int64_t start, Column *last, int64_t last_index, const Column *kinds,
            const Column *starts, Column *ends)
{
    while (stack->len && stack->ends[stack->len - 1] <= start) {
        stack->len--;
        int64_t index = stack->indices[stack->len], item_end = stack->item_ends[stack->len];
        column_set(last, index, last_index);
        if (((const uint8_t *)kinds->data)[index] == LIST_CODE &&
            item_end > column_get(starts, index) && item_end < column_get(ends, index))
            column_set(ends, index, item_end);
    }
}

static PyObject *key_start, *key_end, *tag_start, *tag_end, *tag_text, *tag_code, *tag_heading,
    *tag_link, *tag_item, *tag_image, *key_level, *soft_break, *hard_break, *space, *newline,
    *empty;


/* Whether the str `name` is `known` (interned). The parser's keys and tags are interned, and
 * two interned strings of one text are one object: so an interned name is compared by identity
 * alone, a hash look-up's work saved on each of the parser's events. */
static inline int
same_name(PyObject *name, PyObject *known)
{
    if (name == known)
        return 1;
    if (!PyUnicode_CheckExact(name) || PyUnicode_CHECK_INTERNED(name))
        return 0;
    return PyUnicode_Compare(name, known) == 0;
}

/* The parser's events and tags are dicts of one key ({"Start": tag}, {"Text": "..."}): that key
 * and its value (borrowed), or 0 for a dict of another size, which the caller looks up. */
static inline int
only_item(PyObject *dict, PyObject **key, PyObject **value)
{
    Py_ssize_t position = 0;
    return PyDict_GET_SIZE(dict) == 1 && PyDict_Next(dict, &position, key, value) &&
           PyUnicode_CheckExact(*key);
}

/* dict[key] for a one-key dict whose key is compared as same_name; a look-up otherwise. Borrowed,
 * or NULL (with an error set if the look-up failed). */
static inline PyObject *
item_of(PyObject *dict, PyObject *key)
{
    PyObject *only, *value;
    if (only_item(dict, &only, &value))
        return same_name(only, key) ? value : NULL;
    return PyDict_GetItemWithError(dict, key);
}

/* The caller's names → codes (a dict of a few str keys), kept as pairs so that an interned name
 * is found by identity; other names (and dicts of many or non-interned keys) are looked up. */
enum { MAX_NAMES = 8 };
typedef struct {
    PyObject *dict, *keys[MAX_NAMES], *values[MAX_NAMES];
    Py_ssize_t count; /* -1: look every name up */
} Names;

static void
names_init(Names *names, PyObject *dict)
{
    Py_ssize_t position = 0;
    PyObject *key, *value;
    names->dict = dict;
    names->count = 0;
    if (PyDict_GET_SIZE(dict) > MAX_NAMES) {
        names->count = -1;
        return;
    }
    while (PyDict_Next(dict, &position, &key, &value)) {
        if (!PyUnicode_CheckExact(key) || !PyUnicode_CHECK_INTERNED(key)) {
            names->count = -1;
            return;
        }
        names->keys[names->count] = key;
        names->values[names->count++] = value;
    }
}

/* names[name], borrowed; NULL when absent (with an error set only if a look-up failed, and
 * *looked_up set to 1 whenever one ran). The dict is not changed during a scan (it is the
 * caller's constant), so the pairs stay true. */
static inline PyObject *
names_get(const Names *names, PyObject *name, int *looked_up)
{
    if (names->count >= 0 && PyUnicode_CheckExact(name) && PyUnicode_CHECK_INTERNED(name)) {
        for (Py_ssize_t i = 0; i < names->count; i++)
            if (names->keys[i] == name)
                return names->values[i];
        return NULL;
    }
    *looked_up = 1;
    return PyDict_GetItemWithError(names->dict, name);
}

/* The parser's events, with the caller's checkpoint called at the first of each run of `every`.
 * `next` is the iterator type's own slot, called directly (PyIter_Next's wrapper would look up
 * the slot and the thread's error state on every event). */
typedef struct {
    PyObject *iterator, *checkpoint;
    iternextfunc next;
    long every, left;
} Events;

#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define UNLIKELY(x) (x)
#define ALWAYS_INLINE inline
#endif

/* The next (event, range) pair: a new reference, or NULL at the end (no error set) or on error.
 * Inlined: it runs once per event. */
static ALWAYS_INLINE PyObject *
next_pair(Events *events)
{
    PyObject *pair = events->next(events->iterator);
    if (pair == NULL) {
        /* The end, or an error; a StopIteration set by the slot is the end too. */
        if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_StopIteration))
            PyErr_Clear();
        return NULL;
    }
    if (UNLIKELY(!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2)) {
        Py_DECREF(pair);
        PyErr_SetString(PyExc_TypeError, "the parser gave an event that is not a pair");
        return NULL;
    }
    /* As mdsel.parse._checked: after an event is taken, before it is looked at. */
    if (events->checkpoint != Py_None && --events->left <= 0) {
        events->left = events->every;
        PyObject *result = PyObject_CallNoArgs(events->checkpoint);
        if (result == NULL) {
            Py_DECREF(pair);
            return NULL;
        }
        Py_DECREF(result);
    }
    return pair;
}

static int
range_of(PyObject *range, int64_t *start, int64_t *end)
{
    PyObject *first = NULL, *second = NULL;
    if (PyDict_CheckExact(range)) {
        /* The parser's ranges are {"start": n, "end": m}, in that order, with its interned
         * keys: read in place; any other shape is looked up. */
        Py_ssize_t position = 0;
        PyObject *key1, *key2;
        if (!(PyDict_GET_SIZE(range) == 2 && PyDict_Next(range, &position, &key1, &first) &&
              PyDict_Next(range, &position, &key2, &second) && key1 == key_start &&
              key2 == key_end)) {
            first = PyDict_GetItemWithError(range, key_start);
            second = first ? PyDict_GetItemWithError(range, key_end) : NULL;
        }
    }
    if (first == NULL || second == NULL || !PyLong_CheckExact(first) ||
        !PyLong_CheckExact(second)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "the parser gave a range without start and end");
        return -1;
    }
    *start = PyLong_AsLongLong(first);
    *end = PyLong_AsLongLong(second);
    if (PyErr_Occurred())
        return -1;
    if (*start < 0 || *end < 0) {
        PyErr_SetString(PyExc_ValueError, "the parser gave a negative offset");
        return -1;
    }
    return 0;
}

/* Calls `limit(offset)`, which raises the node-limit error; NULL always. */
static PyObject *
over_limit(PyObject *limit, int64_t offset)
{
    PyObject *where = PyLong_FromLongLong(offset);
    if (where != NULL) {
        PyObject *result = PyObject_CallOneArg(limit, where);
        Py_DECREF(where);
        if (result != NULL) {
            Py_DECREF(result);
            PyErr_SetString(PyExc_RuntimeError, "the node limit callback returned");
        }
    }
    return NULL;
}

/* Appends `piece` to *text (a new reference kept there; NULL on error). */
static void
append(PyObject **text, PyObject *piece)
{
    PyObject *joined = PyUnicode_Concat(*text, piece);
    Py_SETREF(*text, joined);
}

/* A heading's title from its inline events, up to its End (the only End holding a dict there):
 * Text and Code joined, a line break as a space. A new reference, or NULL on error.
 *
 * *github is set to its text as GitHub shows it where that differs (a new reference; NULL where
 * it is the title): an image's alt text is not part of it, and a line break is a newline. */
static PyObject *
heading_title(Events *events, PyObject **github)
{
    PyObject *title = Py_NewRef(empty), *pair;
    Py_ssize_t in_image = 0; /* images open around the current event (alt text may hold one) */
    *github = NULL;
    while ((pair = next_pair(events)) != NULL) {
        PyObject *event = PyTuple_GET_ITEM(pair, 0), *piece = NULL, *value;
        int done = 0, line_break = 0;
        if (PyDict_CheckExact(event)) {
            /* In the order the Python loop tests them. */
            if ((value = item_of(event, tag_text)) != NULL)
                piece = value;
            else if (!PyErr_Occurred() && (value = item_of(event, tag_end)) != NULL) {
                if (PyDict_CheckExact(value))
                    done = 1;
                else if (in_image && same_name(value, tag_image))
                    in_image--;
            } else if (!PyErr_Occurred() && (value = item_of(event, tag_start)) != NULL) {
                PyObject *name, *ignored;
                if (PyDict_CheckExact(value) && only_item(value, &name, &ignored) &&
                    same_name(name, tag_image))
                    in_image++;
            } else if (!PyErr_Occurred())
                piece = item_of(event, tag_code);
        } else if (PyUnicode_CheckExact(event)) {
            int soft = PyUnicode_Compare(event, soft_break) == 0;
            if (soft || PyUnicode_Compare(event, hard_break) == 0)
                line_break = 1;
        }
        if (piece != NULL && !PyUnicode_CheckExact(piece)) {
            PyErr_SetString(PyExc_TypeError, "the parser gave a text that is not a string");
            piece = NULL;
        }
        if ((in_image && piece != NULL) || line_break) {
            if (*github == NULL) /* the first difference: GitHub's text so far is the title */
                *github = Py_NewRef(title);
            if (line_break && *github != NULL)
                append(github, newline);
        } else if (piece != NULL && *github != NULL)
            append(github, piece);
        if (piece != NULL || line_break)
            append(&title, line_break ? space : piece);
        Py_DECREF(pair);
        if (title == NULL || PyErr_Occurred() || done)
            break;
    }
    if (title != NULL && PyErr_Occurred())
        Py_CLEAR(title);
    if (title == NULL)
        Py_CLEAR(*github);
    return title;
}

typedef struct {
    Column kinds, starts, ends, parents, last, levels, heading_starts, heading_ends, title_ends;
    Column top[KIND_COUNT];
    Stack open;
} Columns;

static void
columns_free(Columns *columns)
{
    Column *all[] = {&columns->kinds, &columns->starts, &columns->ends, &columns->parents,
                     &columns->last, &columns->levels, &columns->heading_starts,
                     &columns->heading_ends, &columns->title_ends, &columns->top[0],
                     &columns->top[1],
                     &columns->top[2], &columns->top[3], &columns->top[4]};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        PyMem_Free(all[i]->data);
    PyMem_Free(columns->open.ends);
    PyMem_Free(columns->open.indices);
    PyMem_Free(columns->open.item_ends);
}

PyDoc_STRVAR(scan_doc,
"scan(events, codes, levels, checkpoint, every, room, rare, limit, make, code, width, signed,\n"
"     signed_width, shift)\n"
"\n"
"What mdsel.parse.scan_python computes from the same events, the fields of a Scan up to its\n"
"title ends: (kinds, starts, ends, parents, last, (top...), levels, heading_starts,\n"
"heading_ends, titles, title_ends). Kinds and levels are bytearrays; the other columns are\n"
"make(code, bytes) (make(signed, bytes) for parents), `width` and `signed_width` bytes an item.\n"
"Offsets are shifted by `shift`; `rare(level, start, end, open_end, title, index, github)`\n"
"(unshifted offsets, open_end -1 outside containers, github the text GitHub shows where it is\n"
"not the title, else None) is asked for a heading inside a list or quote, whose title ends in\n"
"one of '#', tab, space or '}', or whose GitHub text differs, and gives its title or None to\n"
"drop it.");

static PyObject *
scan(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    /* Positional arguments read in place (METH_FASTCALL): a format string's parsing costs a
     * small file's scan more than its events. */
    if (nargs != 14) {
        PyErr_Format(PyExc_TypeError, "scan() takes 14 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *iterable = args[0], *codes = args[1], *levels_of = args[2], *checkpoint = args[3],
             *rare = args[6], *limit = args[7], *make = args[8], *code_name = args[9],
             *signed_name = args[11];
    if (!PyDict_Check(codes) || !PyDict_Check(levels_of) || !PyUnicode_Check(code_name) ||
        !PyUnicode_Check(signed_name)) {
        PyErr_SetString(PyExc_TypeError, "scan(): codes and levels are dicts, typecodes str");
        return NULL;
    }
    /* Each number checked as soon as it is read: a failed one must not run the next's
     * __index__ with its error still set. */
    long every, width, parent_width;
    Py_ssize_t room;
    long long shift;
    if (((every = PyLong_AsLong(args[4])) == -1 && PyErr_Occurred()) ||
        ((room = PyNumber_AsSsize_t(args[5], PyExc_OverflowError)) == -1 && PyErr_Occurred()) ||
        ((width = PyLong_AsLong(args[10])) == -1 && PyErr_Occurred()) ||
        ((parent_width = PyLong_AsLong(args[12])) == -1 && PyErr_Occurred()) ||
        ((shift = PyLong_AsLongLong(args[13])) == -1 && PyErr_Occurred()))
        return NULL;
    if ((width != 4 && width != 8) || (parent_width != 4 && parent_width != 8) || shift < 0) {
        PyErr_SetString(PyExc_ValueError, "widths are 4 or 8 bytes and the shift is positive");
        return NULL;
    }
    Names code_names;
    names_init(&code_names, codes);
    Events events = {NULL, checkpoint, NULL, every > 0 ? every : 1, 1};
    events.iterator = PyObject_GetIter(iterable);
    if (events.iterator == NULL)
        return NULL;
    events.next = Py_TYPE(events.iterator)->tp_iternext; /* PyObject_GetIter checked it is one */
    Columns c;
    memset(&c, 0, sizeof c);
    c.kinds.width = c.levels.width = 1;
    c.starts.width = c.ends.width = c.last.width = (int)width;
    c.heading_starts.width = c.heading_ends.width = c.title_ends.width = (int)width;
    c.parents.width = (int)parent_width;
    for (int k = 0; k < KIND_COUNT; k++)
        c.top[k].width = (int)width;
    PyObject *titles = PyList_New(0), *result = NULL, *pair;
    int64_t title_length = 0; /* of every title so far, in code points */
    if (titles == NULL)
        goto done;
    while ((pair = next_pair(&events)) != NULL) {
        PyObject *event = PyTuple_GET_ITEM(pair, 0), *range = PyTuple_GET_ITEM(pair, 1);
        /* Whether a look-up that may set an error ran: most events are one-key dicts of the
         * parser's interned names, read in place, and never need the (thread-state) check. */
        int looked_up = 0;
        PyObject *tag = NULL, *only, *value;
        if (PyDict_CheckExact(event)) {
            if (only_item(event, &only, &value))
                tag = same_name(only, tag_start) ? value : NULL;
            else {
                tag = PyDict_GetItemWithError(event, tag_start);
                looked_up = 1;
            }
        }
        PyObject *code = NULL, *heading = NULL;
        if (tag != NULL && PyUnicode_CheckExact(tag)) {
            code = names_get(&code_names, tag, &looked_up);
            if (code == NULL && !(looked_up && PyErr_Occurred()) && same_name(tag, tag_item)) {
                /* As scan_python: the item's list (the innermost open container once those
                 * ended are closed) is cut at its last item's end after the loop. */
                int64_t start, end;
                if (range_of(range, &start, &end) < 0)
                    goto fail_pair;
                Py_DECREF(pair);
                stack_close(&c.open, start, &c.last, c.kinds.len - 1, &c.kinds, &c.starts, &c.ends);
                if (c.open.len)
                    c.open.item_ends[c.open.len - 1] = end + shift;
                continue;
            }
        } else if (tag != NULL && PyDict_CheckExact(tag)) {
            PyObject *name;
            if (only_item(tag, &name, &value)) {
                if (same_name(name, tag_heading))
                    heading = value;
                else if (!same_name(name, tag_link))
                    code = names_get(&code_names, name, &looked_up);
            } else {
                looked_up = 1;
                heading = PyDict_GetItemWithError(tag, tag_heading);
                if (heading == NULL && !PyErr_Occurred() &&
                    PyDict_GetItemWithError(tag, tag_link) == NULL && !PyErr_Occurred()) {
                    Py_ssize_t position = 0;
                    if (PyDict_Next(tag, &position, &name, &value))
                        code = PyDict_GetItemWithError(codes, name);
                }
            }
        }
        if (looked_up && PyErr_Occurred())
            goto fail_pair;
        if (heading != NULL) {
            int64_t start, end;
            if (range_of(range, &start, &end) < 0)
                goto fail_pair;
            PyObject *level_name = PyDict_CheckExact(heading)
                                       ? PyDict_GetItemWithError(heading, key_level) : NULL;
            PyObject *level = level_name ? PyDict_GetItemWithError(levels_of, level_name) : NULL;
            if (level == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "the parser gave a heading without a level");
                goto fail_pair;
            }
            long level_value = PyLong_AsLong(level);
            Py_DECREF(pair);
            if (level_value == -1 && PyErr_Occurred())
                goto done;
            stack_close(&c.open, start, &c.last, c.kinds.len - 1, &c.kinds, &c.starts, &c.ends);
            if (c.kinds.len >= room) {
                over_limit(limit, start + shift);
                goto done;
            }
            room--;
            PyObject *github;
            PyObject *title = heading_title(&events, &github);
            if (title == NULL)
                goto done;
            Py_ssize_t length = PyUnicode_GET_LENGTH(title);
            Py_UCS4 final = length ? PyUnicode_READ_CHAR(title, length - 1) : 0;
            if (c.open.len || final == '#' || final == '\t' || final == ' ' || final == '}' ||
                github != NULL) {
                long long open_end = c.open.len ? c.open.ends[c.open.len - 1] : -1;
                PyObject *shown = PyObject_CallFunction(
                    rare, "lLLLOnO", level_value, (long long)start, (long long)end, open_end,
                    title, c.levels.len, github != NULL ? github : Py_None);
                Py_XDECREF(github);
                Py_SETREF(title, shown);
                if (title == NULL)
                    goto done;
                if (title == Py_None) {
                    Py_DECREF(title);
                    continue;
                }
            }
            title_length += PyUnicode_GET_LENGTH(title);
            int failed = column_push(&c.levels, level_value) < 0 ||
                         column_push(&c.heading_starts, start + shift) < 0 ||
                         column_push(&c.heading_ends, end + shift) < 0 ||
                         column_push(&c.title_ends, title_length) < 0 ||
                         PyList_Append(titles, title) < 0;
            Py_DECREF(title);
            if (failed)
                goto done;
            continue;
        }
        if (code == NULL) {
            Py_DECREF(pair);
            continue;
        }
        long kind = PyLong_AsLong(code);
        int64_t start, end;
        if (kind < 0 || kind >= KIND_COUNT) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a block kind code out of range");
            goto fail_pair;
        }
        if (range_of(range, &start, &end) < 0)
            goto fail_pair;
        Py_DECREF(pair);
        Py_ssize_t index = c.kinds.len;
        if (index >= room) {
            over_limit(limit, start + shift);
            goto done;
        }
        if (end <= start)
            end = start + 1;
        stack_close(&c.open, start, &c.last, index - 1, &c.kinds, &c.starts, &c.ends);
        int failed;
        if (c.open.len)
            failed = column_push(&c.parents, c.open.indices[c.open.len - 1]) < 0;
        else
            failed = column_push(&c.parents, -1) < 0 || column_push(&c.top[kind], index) < 0;
        if (failed || column_push(&c.kinds, kind) < 0 ||
            column_push(&c.starts, start + shift) < 0 ||
            column_push(&c.ends, end + shift) < 0 || column_push(&c.last, index) < 0)
            goto done;
        if ((kind == LIST_CODE || kind == QUOTE_CODE) && stack_push(&c.open, end, index) < 0)
            goto done;
        continue;
    fail_pair:
        Py_DECREF(pair);
        goto done;
    }
    if (PyErr_Occurred())
        goto done;
    stack_close(&c.open, INT64_MAX, &c.last, c.kinds.len - 1, &c.kinds, &c.starts, &c.ends);
    /* Every offset column but the signed parents, made at once (columns_arrays). */
    Column *offsets[] = {&c.starts, &c.ends, &c.last, &c.top[0], &c.top[1], &c.top[2],
                         &c.top[3], &c.top[4], &c.heading_starts, &c.heading_ends,
                         &c.title_ends};
    PyObject *made[sizeof offsets / sizeof *offsets] = {NULL};
    if (columns_arrays(make, code_name, offsets, sizeof offsets / sizeof *offsets, made) < 0) {
        for (size_t i = 0; i < sizeof made / sizeof *made; i++)
            Py_XDECREF(made[i]);
        goto done;
    }
    PyObject *top[] = {made[3], made[4], made[5], made[6], made[7]};
    PyObject *fields[] = {
        column_bytearray(&c.kinds), made[0], made[1], column_array(make, signed_name, &c.parents),
        made[2], tuple_of(top, KIND_COUNT), column_bytearray(&c.levels), made[8], made[9],
        PyUnicode_Join(empty, titles), made[10],
    };
    result = tuple_of(fields, sizeof fields / sizeof *fields);
done:
    Py_XDECREF(titles);
    Py_DECREF(events.iterator);
    columns_free(&c);
    return result;
}

/* bytes.split() whitespace: space, \t, \n, \v, \f, \r. Branch-free, so that the loops below
 * compile to vector instructions. */
#define IS_SPACE(c) (((c) == ' ') | ((unsigned char)((c) - '\t') < 5))

/* Both counts below add up in blocks of BLOCK bytes, each block's count held in one byte: gcc
 * then keeps a vector register of byte counters (16 or 32 bytes a step) and widens them once a
 * block, where an int64 total widens every byte. A multiple of 32 under 256, so no byte
 * counter overflows and a block needs no scalar tail. */
#define BLOCK 224

/* With GCC on x86-64 and glibc, an AVX2 copy too, which glibc's loader picks (ifunc) where the
 * CPU has it: twice the bytes a step. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VECTOR_CLONES
#endif

/* The words (a non-space byte at the start or after a space) and the newlines in `size` bytes,
 * added to *words and *lines: both in one pass over the bytes. */
VECTOR_CLONES static void
count_words_and_lines(const unsigned char *bytes, Py_ssize_t size, int64_t *words,
                      int64_t *lines)
{
    if (size <= 0)
        return;
    int64_t word_count = !IS_SPACE(bytes[0]), line_count = bytes[0] == '\n';
    for (Py_ssize_t start = 1; start < size; start += BLOCK) {
        Py_ssize_t end = size - start > BLOCK ? start + BLOCK : size;
        uint8_t word_block = 0, line_block = 0;
        for (Py_ssize_t i = start; i < end; i++) {
            word_block += IS_SPACE(bytes[i - 1]) & !IS_SPACE(bytes[i]);
            line_block += bytes[i] == '\n';
        }
        word_count += word_block;
        line_count += line_block;
    }
    *words += word_count;
    *lines += line_count;
}

PyDoc_STRVAR(heading_counts_doc,
"heading_counts(data, starts, make) -> (first_lines, words_before)\n"
"\n"
"For headings starting at `starts` (an array of offsets in order, within data), each one's first\n"
"line (1 + the newlines before it) and the words before it (a non-space byte at the start of\n"
"data or after a space), each with one more entry for the end of data: the line there and every\n"
"word. Both are make(starts.typecode, bytes), counted in one pass over the bytes.");

static PyObject *
heading_counts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer data, starts;
    PyObject *typecode = NULL, *lines = NULL, *words = NULL;
    PyObject *result = NULL;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "heading_counts() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *starts_object = args[1], *make = args[2];
    /* A bytes-like object, as "y*" takes (read in place, METH_FASTCALL, like scan). */
    if (PyObject_GetBuffer(args[0], &data, PyBUF_SIMPLE) < 0)
        return NULL;
    /* The array's typecode is its buffer format: unsigned 4 or 8 bytes (offset_typecode). */
    if (PyObject_GetBuffer(starts_object, &starts, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&data);
        return NULL;
    }
    const char *format = starts.format ? starts.format : "B";
    if (!((strcmp(format, "I") == 0 && starts.itemsize == 4) ||
          (strcmp(format, "Q") == 0 && starts.itemsize == 8))) {
        PyErr_SetString(PyExc_TypeError, "starts must be an array of typecode 'I' or 'Q'");
        goto done;
    }
    Py_ssize_t count = starts.len / starts.itemsize, width = starts.itemsize;
    Column first = {NULL, 0, 0, (int)width}, before = {NULL, 0, 0, (int)width};
    const unsigned char *bytes = data.buf;
    int64_t line = 1, word = 0;
    Py_ssize_t previous = 0;
    for (Py_ssize_t k = 0; k <= count; k++) {
        Py_ssize_t bound = data.len;
        if (k < count)
            bound = width == 4 ? (Py_ssize_t)((const uint32_t *)starts.buf)[k]
                               : (Py_ssize_t)((const uint64_t *)starts.buf)[k];
        if (bound < previous || bound > data.len) {
            PyErr_SetString(PyExc_ValueError, "starts must be in order and within the data");
            goto free_columns;
        }
        /* As nesting's Python counts: a span opening on a word counts it (headings start at
         * line starts, so no word is cut in two). */
        count_words_and_lines(bytes + previous, bound - previous, &word, &line);
        if (column_push(&first, line) < 0 || column_push(&before, word) < 0)
            goto free_columns;
        previous = bound;
    }
    typecode = PyUnicode_FromString(format);
    if (typecode != NULL) {
        lines = column_array(make, typecode, &first);
        words = lines ? column_array(make, typecode, &before) : NULL;
        if (words != NULL)
            result = PyTuple_Pack(2, lines, words);
    }
free_columns:
    PyMem_Free(first.data);
    PyMem_Free(before.data);
done:
    Py_XDECREF(typecode);
    Py_XDECREF(lines);
    Py_XDECREF(words);
    PyBuffer_Release(&data);
    PyBuffer_Release(&starts);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL, scan_doc},
    {"heading_counts", (PyCFunction)(void (*)(void))heading_counts, METH_FASTCALL,
     heading_counts_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mdsel._scan", "mdsel's scan and byte counts, compiled.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__scan(void)
{
    struct { PyObject **name; const char *text; } names[] = {
        {&key_start, "start"}, {&key_end, "end"}, {&tag_start, "Start"}, {&tag_end, "End"},
        {&tag_text, "Text"}, {&tag_code, "Code"}, {&tag_heading, "Heading"},
        {&tag_link, "Link"}, {&tag_item, "Item"}, {&tag_image, "Image"}, {&key_level, "level"},
        {&soft_break, "SoftBreak"}, {&hard_break, "HardBreak"}, {&space, " "}, {&newline, "\n"},
        {&empty, ""},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if ((*names[i].name = PyUnicode_InternFromString(names[i].text)) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
