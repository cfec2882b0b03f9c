/* tagd-private.h: what the widgets share and the library does not export.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "tagd-connection.h"

G_BEGIN_DECLS

void _tagd_i18n_init (void);

#define TAGD_ERROR (tagd_error_quark ())
GQuark tagd_error_quark (void);

enum {
  /* The tagd child that the call was sent to has gone; the session is re-opened. */
  TAGD_ERROR_RESTARTED = 1,
  /* Errors tagd answered carry their JSON-RPC code (negative) in this domain. */
  TAGD_ERROR_INVALID_PARAMS = -32602,
};

/* A field or cloud session (tagd-session.h), registered with the connection by its id. */
typedef struct _TagdSession TagdSession;

typedef void (*TagdReplyFunc) (GVariant *result, const GError *error, gpointer user_data);

char *_tagd_connection_register   (TagdConnection *self,
                                   const char     *prefix,
                                   TagdSession    *session);
char *_tagd_connection_rename     (TagdConnection *self,
                                   const char     *old_id,
                                   const char     *prefix);
void  _tagd_connection_unregister (TagdConnection *self,
                                   const char     *id);
gboolean _tagd_connection_is_up   (TagdConnection *self);
/* The vaults (folders) the widgets name: every child is initialized with them. */
void     _tagd_connection_add_vault    (TagdConnection *self, const char *folder);
void     _tagd_connection_remove_vault (TagdConnection *self, const char *folder);
/* Bumped whenever a tagd child dies or is spawned: a session opened at another generation is not
 * open in the running child (its widget re-opens it once the child is up). */
guint    _tagd_connection_generation (TagdConnection *self);

/* Sends a request; @params is consumed if floating. @func is always called exactly once
 * (with TAGD_ERROR_RESTARTED if the child died first), in the main context. */
void  _tagd_connection_call       (TagdConnection *self,
                                   const char     *method,
                                   GVariant       *params,
                                   TagdReplyFunc   func,
                                   gpointer        user_data);
void  _tagd_connection_notify     (TagdConnection *self,
                                   const char     *method,
                                   GVariant       *params);

/* GVariant helpers for what jsonrpc-glib hands back (numbers are x or d, arrays av). */
double       _tagd_variant_number (GVariant *dict, const char *key, double fallback);
char       **_tagd_variant_strv   (GVariant *value);
GVariant    *_tagd_variant_lookup (GVariant *dict, const char *key);
gboolean     _tagd_strv_equal     (char **a, char **b);

G_END_DECLS
