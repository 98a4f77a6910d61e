/* The call path of a compiled entry: numpy arrays in, numpy arrays out, in native code.

   A packed entry (codegen/jit.py) takes one pointer to an array of pointers, one per
   argument then one per result: a memref argument or result points at its descriptor
   (allocated, aligned, offset, sizes..., strides... as int64, strides in elements), a
   scalar at its value. Results are memrefs the code malloc'ed (or a global's, or one of
   the inputs when the model returns an input): each malloc'ed allocation becomes the
   base of the arrays that view it and is freed when the last is gone; a global or an
   input is copied out, the caller does not own it.

   Building the descriptors and the result arrays in Python cost about 40 us per call
   (most of a small model's run), here under 2 us. The GIL is released while the code
   runs, so two Python threads run two models at once.

   The allocator the code's buffers come from is here too (infer_alloc and infer_free,
   abi.ALLOC_SYMBOL and FREE_SYMBOL, bound by the code loaders): malloc and free, except
   that a freed block of CACHED_MIN bytes or more is kept (up to CACHE_LIMIT bytes in all)
   and handed to the next request it fits within a quarter. Buffers of run-time size (a
   model of dynamic batch has no arena: docs/memory_plan.md) are then mapped and faulted
   in once, not on every run: ResNet-50 of dynamic batch at 2 threads ran 21% faster.

   Python API: call(address, inputs, in_specs, out_specs, own_allocator) -> list of
   arrays, where in_specs is a tuple of (dtype, rank or -1 for a scalar, contiguous),
   out_specs a tuple of (dtype, rank or -1), and own_allocator whether the code allocates
   with infer_alloc (code compiled before it came uses malloc); allocator_symbols() -> the
   addresses of infer_alloc and infer_free. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void (*packed_fn)(void **);

/* ---- the allocator ---- */

#define HEADER 16 /* before each block: its size; keeps malloc's 16-byte alignment */
#define CACHED_MIN ((size_t)1 << 18)
#define CACHE_LIMIT ((size_t)1 << 30)
#define GRANULE ((size_t)1 << 16) /* cached sizes are rounded up to it */

typedef struct block {
  size_t size; /* bytes, header included */
  struct block *next; /* in the cache */
} block;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static block *cache;
static size_t cached_bytes;

void *infer_alloc(int64_t bytes) {
  size_t size = (size_t)(bytes < 0 ? 0 : bytes) + HEADER;
  if (size >= CACHED_MIN) {
    size = (size + GRANULE - 1) / GRANULE * GRANULE;
    block *best = NULL, **best_at = NULL;
    pthread_mutex_lock(&cache_lock);
    for (block **at = &cache; *at != NULL; at = &(*at)->next)
      if ((*at)->size >= size && (*at)->size <= size + size / 4 &&
          (best == NULL || (*at)->size < best->size)) {
        best = *at;
        best_at = at;
      }
    if (best != NULL) {
      *best_at = best->next;
      cached_bytes -= best->size;
    }
    pthread_mutex_unlock(&cache_lock);
    if (best != NULL) return (char *)best + HEADER;
  }
  block *b = malloc(size);
  if (b == NULL) return NULL;
  b->size = size;
  return (char *)b + HEADER;
}

void infer_free(void *ptr) {
  if (ptr == NULL) return;
  block *b = (block *)((char *)ptr - HEADER);
  if (b->size >= CACHED_MIN) {
    pthread_mutex_lock(&cache_lock);
    int kept = cached_bytes + b->size <= CACHE_LIMIT;
    if (kept) {
      b->next = cache;
      cache = b;
      cached_bytes += b->size;
    }
    pthread_mutex_unlock(&cache_lock);
    if (kept) return;
  }
  free(b);
}

/* After fork() the child has one thread: a lock another thread held is released. */
static void cache_lock_take(void) { pthread_mutex_lock(&cache_lock); }
static void cache_lock_give(void) { pthread_mutex_unlock(&cache_lock); }

/* ---- the call path ---- */

/* Frees a result's allocation when the last array viewing it is released: with
   infer_free, or free for code that allocates with malloc (the capsule's context). */
static void free_allocation(PyObject *capsule) {
  void *ptr = PyCapsule_GetPointer(capsule, "infer.allocation");
  if (PyCapsule_GetContext(capsule) != NULL) infer_free(ptr);
  else free(ptr);
}

static int parse_spec(PyObject *spec, PyArray_Descr **dtype, int *rank, int *contiguous) {
  if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 2 ||
      !PyArray_DescrCheck(PyTuple_GET_ITEM(spec, 0))) {
    PyErr_SetString(PyExc_TypeError, "an argument spec is (dtype, rank[, contiguous])");
    return -1;
  }
  *dtype = (PyArray_Descr *)PyTuple_GET_ITEM(spec, 0);
  *rank = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 1));
  if (*rank == -1 && PyErr_Occurred()) return -1;
  if (*rank > NPY_MAXDIMS) {
    PyErr_SetString(PyExc_ValueError, "a memref of more dims than numpy allows");
    return -1;
  }
  *contiguous = PyTuple_GET_SIZE(spec) > 2 && PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2));
  return 0;
}

/* Whether a result's allocation is not the caller's to free: a global's (none) or an
   input's. */
static int borrowed(const int64_t *slot, PyObject **inputs, Py_ssize_t n_inputs) {
  void *allocated = (void *)(intptr_t)slot[0];
  if (allocated == NULL) return 1;
  for (Py_ssize_t i = 0; i < n_inputs; i++)
    if (PyArray_DATA((PyArrayObject *)inputs[i]) == allocated) return 1;
  return 0;
}

/* The capsule that frees a result's allocation (borrowed), one per allocation however
   many results view it: `owners` maps addresses to them and holds them until the arrays
   do, so an allocation no array took is freed with it. */
static PyObject *owner_of(const int64_t *slot, PyObject *owners, int own_allocator) {
  void *allocated = (void *)(intptr_t)slot[0];
  PyObject *key = PyLong_FromVoidPtr(allocated);
  if (key == NULL) return NULL;
  PyObject *owner = PyDict_GetItemWithError(owners, key);
  if (owner == NULL && !PyErr_Occurred()) {
    owner = PyCapsule_New(allocated, "infer.allocation", free_allocation);
    if (owner != NULL && own_allocator && PyCapsule_SetContext(owner, (void *)1) < 0) {
      Py_DECREF(owner);  /* (never: a fresh capsule takes a context) */
      owner = NULL;
    }
    if (owner != NULL) {
      int failed = PyDict_SetItem(owners, key, owner);
      Py_DECREF(owner);  /* the dict holds it */
      if (failed) owner = NULL;
    }
  }
  Py_DECREF(key);
  return owner;
}

/* The array a memref result describes: a view of its allocation whose base is `owner`,
   or a copy where the allocation is borrowed (owner NULL). */
static PyObject *wrap_result(const int64_t *slot, PyArray_Descr *dtype, int rank,
                             PyObject *owner) {
  npy_intp dims[NPY_MAXDIMS], strides[NPY_MAXDIMS];
  Py_ssize_t itemsize = PyDataType_ELSIZE(dtype);
  for (int d = 0; d < rank; d++) {
    dims[d] = (npy_intp)slot[3 + d];
    strides[d] = (npy_intp)(slot[3 + rank + d] * itemsize);
  }
  char *data = (char *)(intptr_t)slot[1] + slot[2] * itemsize;
  Py_INCREF(dtype);  /* NewFromDescr steals it */
  PyObject *view = PyArray_NewFromDescr(&PyArray_Type, dtype, rank, dims, strides, data,
                                        NPY_ARRAY_WRITEABLE, NULL);
  if (view == NULL) return NULL;
  if (owner == NULL) {
    PyObject *copy = PyArray_NewCopy((PyArrayObject *)view, NPY_CORDER);
    Py_DECREF(view);
    return copy;
  }
  Py_INCREF(owner);
  if (PyArray_SetBaseObject((PyArrayObject *)view, owner) < 0) {  /* steals owner */
    Py_DECREF(view);
    return NULL;
  }
  return view;
}

static PyObject *call(PyObject *self, PyObject *args) {
  PyObject *address_obj, *inputs_obj, *in_specs, *out_specs;
  int own_allocator;
  (void)self;
  if (!PyArg_ParseTuple(args, "OOO!O!p", &address_obj, &inputs_obj, &PyTuple_Type, &in_specs,
                        &PyTuple_Type, &out_specs, &own_allocator))
    return NULL;
  packed_fn fn = (packed_fn)PyLong_AsVoidPtr(address_obj);
  if (fn == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no entry at address 0");
    return NULL;
  }
  PyObject *seq = PySequence_Fast(inputs_obj, "inputs must be a sequence");
  if (seq == NULL) return NULL;
  Py_ssize_t n_in = PyTuple_GET_SIZE(in_specs), n_out = PyTuple_GET_SIZE(out_specs);
  if (PySequence_Fast_GET_SIZE(seq) != n_in) {
    PyErr_Format(PyExc_ValueError, "the entry takes %zd inputs, got %zd", n_in,
                 PySequence_Fast_GET_SIZE(seq));
    Py_DECREF(seq);
    return NULL;
  }
  /* One int64 area for every descriptor and scalar result, one for the pointers. */
  Py_ssize_t words = 0;
  for (Py_ssize_t i = 0; i < n_in + n_out; i++) {
    PyObject *spec = i < n_in ? PyTuple_GET_ITEM(in_specs, i)
                              : PyTuple_GET_ITEM(out_specs, i - n_in);
    PyArray_Descr *dtype;
    int rank, contiguous;
    if (parse_spec(spec, &dtype, &rank, &contiguous) < 0) { Py_DECREF(seq); return NULL; }
    words += rank < 0 ? 2 : 3 + 2 * rank;  /* a scalar result: up to 16 bytes */
  }
  int64_t *area = PyMem_Calloc((size_t)words + 1, sizeof(int64_t));
  void **pointers = PyMem_Calloc((size_t)(n_in + n_out) + 1, sizeof(void *));
  PyObject **arrays = PyMem_Calloc((size_t)n_in + 1, sizeof(PyObject *));
  PyObject *result = NULL;
  if (area == NULL || pointers == NULL || arrays == NULL) { PyErr_NoMemory(); goto done; }
  int64_t *at = area;
  for (Py_ssize_t i = 0; i < n_in; i++) {
    PyArray_Descr *dtype;
    int rank, contiguous;
    parse_spec(PyTuple_GET_ITEM(in_specs, i), &dtype, &rank, &contiguous);
    PyObject *value = PySequence_Fast_GET_ITEM(seq, i);
    if (rank < 0) {  /* a scalar: its value converted to the dtype */
      Py_INCREF(dtype);
      arrays[i] = PyArray_FromAny(value, dtype, 0, 0, NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST,
                                  NULL);
      if (arrays[i] == NULL) goto done;
      pointers[i] = PyArray_DATA((PyArrayObject *)arrays[i]);
      continue;
    }
    arrays[i] = PyArray_FromAny(value, NULL, 0, 0,
                                contiguous ? NPY_ARRAY_CARRAY_RO : NPY_ARRAY_ALIGNED, NULL);
    if (arrays[i] == NULL) goto done;
    PyArrayObject *a = (PyArrayObject *)arrays[i];
    if (!PyArray_EquivTypes(PyArray_DESCR(a), dtype) || PyArray_NDIM(a) != rank) {
      PyErr_Format(PyExc_TypeError, "argument %zd: expected rank %d of %R, got %R", i, rank,
                   (PyObject *)dtype, (PyObject *)PyArray_DESCR(a));
      goto done;
    }
    int64_t itemsize = PyArray_ITEMSIZE(a);
    at[0] = at[1] = (int64_t)(intptr_t)PyArray_DATA(a);
    at[2] = 0;
    for (int d = 0; d < rank; d++) {
      at[3 + d] = PyArray_DIM(a, d);
      at[3 + rank + d] = PyArray_STRIDE(a, d) / itemsize;
    }
    pointers[i] = at;
    at += 3 + 2 * rank;
  }
  for (Py_ssize_t j = 0; j < n_out; j++) {
    PyArray_Descr *dtype;
    int rank, contiguous;
    parse_spec(PyTuple_GET_ITEM(out_specs, j), &dtype, &rank, &contiguous);
    pointers[n_in + j] = at;
    at += rank < 0 ? 2 : 3 + 2 * rank;
  }
  Py_BEGIN_ALLOW_THREADS
  fn(pointers);
  Py_END_ALLOW_THREADS
  /* Every result is wrapped even after a failure, so that no allocation is left. */
  PyObject *owners = PyDict_New();
  PyObject *out = PyList_New(n_out);
  int failed = owners == NULL || out == NULL;
  for (Py_ssize_t j = 0; j < n_out; j++) {
    PyArray_Descr *dtype;
    int rank, contiguous;
    parse_spec(PyTuple_GET_ITEM(out_specs, j), &dtype, &rank, &contiguous);
    const int64_t *slot = pointers[n_in + j];
    PyObject *item = NULL;
    if (rank < 0) {
      Py_INCREF(dtype);
      item = PyArray_NewFromDescr(&PyArray_Type, dtype, 0, NULL, NULL, NULL, 0, NULL);
      if (item != NULL) memcpy(PyArray_DATA((PyArrayObject *)item), slot, PyDataType_ELSIZE(dtype));
    } else {
      PyObject *owner = NULL;
      if (!borrowed(slot, arrays, n_in) &&
          (owners == NULL || (owner = owner_of(slot, owners, own_allocator)) == NULL))
        failed = 1;
      if (!failed) item = wrap_result(slot, dtype, rank, owner);
    }
    if (item == NULL) failed = 1;
    else if (out != NULL) PyList_SET_ITEM(out, j, item);
    else Py_DECREF(item);
  }
  Py_XDECREF(owners);
  if (failed) Py_XDECREF(out);
  else result = out;
done:
  if (arrays != NULL)
    for (Py_ssize_t i = 0; i < n_in; i++) Py_XDECREF(arrays[i]);
  PyMem_Free(arrays);
  PyMem_Free(pointers);
  PyMem_Free(area);
  Py_DECREF(seq);
  return result;
}

static PyObject *allocator_symbols(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return Py_BuildValue("(NN)", PyLong_FromVoidPtr((void *)infer_alloc),
                       PyLong_FromVoidPtr((void *)infer_free));
}

static PyMethodDef methods[] = {
    {"call", call, METH_VARARGS,
     "call(address, inputs, in_specs, out_specs, own_allocator): run a packed entry, "
     "return its results"},
    {"allocator_symbols", allocator_symbols, METH_NOARGS,
     "allocator_symbols(): the addresses of infer_alloc and infer_free"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_entry_call",
                                    "The native call path of compiled entries.", -1, methods};

PyMODINIT_FUNC PyInit__entry_call(void) {
  import_array();
  if (pthread_atfork(cache_lock_take, cache_lock_give, cache_lock_give) != 0) {
    PyErr_SetString(PyExc_OSError, "pthread_atfork failed");
    return NULL;
  }
  return PyModule_Create(&module);
}
