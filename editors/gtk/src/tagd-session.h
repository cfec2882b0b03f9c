/* tagd-session.h: one session in tagd, a field (TagdEntry) or a cloud (TagdCloud). Private.
 *
 * A session has an id registered with the connection and opens with <kind>/open on an idle
 * after construction, then again under a new id when tagd restarts or its widget asks (an
 * option changed). A request the running tagd cannot take is held and sent, in order, right
 * after the next open. Every reply says whether it is of the session open now, so late replies
 * of an old one are told apart.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "tagd-private.h"

G_BEGIN_DECLS

/* Request flags. Higher bits are the widget's own. */
enum {
  TAGD_REQUEST_LOCAL = 1 << 0,  /* ends with its session: not sent again after a restart */
};

typedef struct {
  guint64   seq;
  char     *method;
  GVariant *extra;   /* the params besides the id (a{sv}), or NULL */
  guint     flags;
  gpointer  data;    /* the widget's, freed with TagdSessionClass.free_data */
} TagdRequest;

/* What the widget does for its session; any hook but open_params may be NULL. */
typedef struct {
  const char *kind;    /* "field", "cloud": the id's key in params, the prefix of open and close */
  const char *prefix;  /* ids are gtk-<prefix>-N */
  /* <kind>/open's params besides the id, from the widget's state; @first is the oldest held
   * request, made in the state the session must start from, or NULL. */
  GVariant *(*open_params) (gpointer owner, const TagdRequest *first);
  /* The reply to <kind>/open of the session open now. */
  void      (*open_reply)  (gpointer owner, GVariant *result);
  /* A held @request went out after the open; @next is the held one to follow it, or NULL. */
  void      (*resent)      (gpointer owner, const TagdRequest *request, const TagdRequest *next);
  /* The open and the held requests are out. */
  void      (*after_open)  (gpointer owner);
  /* A request was answered (not called for one held again after a restart). */
  void      (*answered)    (gpointer owner, const TagdRequest *request, GVariant *result,
                            const GError *error, gboolean current);
  /* A notification from tagd for this session. */
  void      (*notify)      (gpointer owner, const char *method, GVariant *params);
  GDestroyNotify free_data;
} TagdSessionClass;

/* @current: the reply is of the session open now. The function frees @data. */
typedef void (*TagdSessionReplyFunc) (gpointer owner, GVariant *result, const GError *error,
                                      gboolean current, gpointer data);

/* In the widget's init, constructed, dispose and finalize. */
TagdSession *_tagd_session_new   (GObject *owner, const TagdSessionClass *klass);
void         _tagd_session_start (TagdSession *self);
void         _tagd_session_stop  (TagdSession *self);
void         _tagd_session_free  (TagdSession *self);

/* Started, and its first open sent (not only scheduled). */
gboolean     _tagd_session_started (TagdSession *self);
/* Open in the tagd that runs now: calls and notifications reach it. */
gboolean     _tagd_session_is_live (TagdSession *self);
/* A new session (new id) from the widget's state, closing the old one if @close_old. */
void         _tagd_session_reopen  (TagdSession *self, gboolean close_old);

/* A request: sent now if live, else held (dropped if LOCAL); @extra is consumed if floating
 * and @data owned. TRUE if it went out now. */
gboolean     _tagd_session_request (TagdSession *self, const char *method, GVariant *extra,
                                    guint flags, gpointer data);
/* A call that is not held (the session must be live); @func may be NULL. */
void         _tagd_session_call    (TagdSession *self, const char *method, GVariant *extra,
                                    TagdSessionReplyFunc func, gpointer data);
/* A notification, dropped unless live (the next open carries the widget's state). */
void         _tagd_session_notify  (TagdSession *self, const char *method, GVariant *extra);

/* For the connection: tagd is up again; a notification for this session's id. */
void         _tagd_session_restarted (TagdSession *self);
void         _tagd_session_dispatch  (TagdSession *self, const char *method, GVariant *params);

/* Warns of a failed request, unless it failed because tagd restarted. */
void         _tagd_report_error (const char *method, const GError *error);

G_END_DECLS
