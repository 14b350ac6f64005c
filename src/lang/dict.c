/*
** dict.c -- name -> Value hash maps for namespaces (globals, locals, builtins, modules).
** Open addressing with linear probing; FNV-1a hashes; deletions use backward-shift.
*/
#include "interp.h"

#include <string.h>

static uint64_t hash_name(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
  return h;
}

Dict *dict_new(Ctx *c) {
  Dict *d = ctx_malloc(c, sizeof *d);
  if (!d) return NULL;
  d->ctx = c; d->cap = 16; d->count = 0; d->version = 0;
  d->slots = ctx_calloc(c, d->cap * sizeof(DictEntry));
  if (!d->slots) { ctx_free(c, d, sizeof *d); return NULL; }
  return d;
}

void dict_free(Dict *d) {
  if (!d) return;
  for (size_t i = 0; i < d->cap; i++) {
    DictEntry *e = &d->slots[i];
    if (e->key) { value_decref(e->value); ctx_free(d->ctx, e->key, e->keylen + 1); }
  }
  ctx_free(d->ctx, d->slots, d->cap * sizeof(DictEntry));
  ctx_free(d->ctx, d, sizeof *d);
}

static DictEntry *find(Dict *d, const char *key, size_t n, uint64_t h) {
  size_t mask = d->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    DictEntry *e = &d->slots[i];
    if (!e->key) return e;
    if (e->hash == h && e->keylen == n && memcmp(e->key, key, n) == 0) return e;
  }
}

Value *dict_get(Dict *d, const char *key) {
  size_t n = strlen(key);
  DictEntry *e = find(d, key, n, hash_name(key, n));
  return e->key ? &e->value : NULL;
}

static int grow(Dict *d) {
  size_t ncap = d->cap * 2;
  DictEntry *ns = ctx_calloc(d->ctx, ncap * sizeof(DictEntry));
  if (!ns) return -1;
  DictEntry *old = d->slots;
  size_t ocap = d->cap;
  d->slots = ns; d->cap = ncap;
  d->version++;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].key) *find(d, old[i].key, old[i].keylen, old[i].hash) = old[i];
  ctx_free(d->ctx, old, ocap * sizeof(DictEntry));
  return 0;
}

int dict_set(Dict *d, const char *key, Value v) {
  size_t n = strlen(key);
  uint64_t h = hash_name(key, n);
  DictEntry *e = find(d, key, n, h);
  if (e->key) { value_decref(e->value); e->value = v; return 0; }
  if ((d->count + 1) * 4 > d->cap * 3) {
    if (grow(d) < 0) { value_decref(v); return -1; }
    e = find(d, key, n, h);
  }
  char *k = ctx_malloc(d->ctx, n + 1);
  if (!k) { value_decref(v); return -1; }
  memcpy(k, key, n + 1);
  e->key = k; e->keylen = n; e->hash = h; e->value = v;
  d->count++;
  d->version++;
  return 0;
}

int dict_del(Dict *d, const char *key) {
  size_t n = strlen(key);
  DictEntry *e = find(d, key, n, hash_name(key, n));
  if (!e->key) return 0;
  value_decref(e->value);
  ctx_free(d->ctx, e->key, e->keylen + 1);
  e->key = NULL;
  d->count--;
  d->version++;
  /* backward-shift the following cluster so lookups stay correct */
  size_t mask = d->cap - 1, i = (size_t)(e - d->slots);
  for (size_t j = (i + 1) & mask; d->slots[j].key; j = (j + 1) & mask) {
    size_t home = d->slots[j].hash & mask;
    bool move = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
    if (move) { d->slots[i] = d->slots[j]; d->slots[j].key = NULL; i = j; }
  }
  return 1;
}
