/* tagd-session.h: one session in tagd, a field (TagdEntry) or a cloud (TagdCloud). Private.
 *
 * A TagdSession is a GObject owned by its widget, which connects to its signals. It has an id
 * registered with the connection and opens with <kind>/open on an idle after construction,
 * then again under a new id when tagd restarts or its widget asks. A request the running tagd
 * cannot take is held and sent, in order, right after the next open. Every reply says whether
 * it is of the session open now, so late replies of an old one are told apart.
 *
 * Signals, in the order of one open:
 *   open-params (first: TagdRequest*) -> GVariant a{sv}: <kind>/open's params besides the id,
 *       from the widget's state; @first is the oldest held request, made in the state the
 *       session must start from, or NULL. The one handler that must be connected.
 *   open-sent (first): the open went out; the held requests follow.
 *   resent (request, next): a held @request went out; @next is the held one to follow, or NULL.
 *   held-sent: the open and every held request are out.
 *   opened (result): the reply to <kind>/open of the session open now.
 *   answered (request, result, error, current): a request was answered (not for one held again
 *       after a restart).
 *   notification (method, params): a notification from tagd for this session.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "tagd-private.h"

G_BEGIN_DECLS

#define TAGD_TYPE_SESSION (tagd_session_get_type ())
G_DECLARE_FINAL_TYPE (TagdSession, tagd_session, TAGD, SESSION, GObject)

/* Request flags. Higher bits are the widget's own. */
enum {
  TAGD_REQUEST_LOCAL = 1 << 0,  /* ends with its session: not sent again after a restart */
};

typedef struct {
  guint64        seq;
  char          *method;
  GVariant      *extra;   /* the params besides the id (a{sv}), or NULL */
  guint          flags;
  gpointer       data;    /* the widget's, freed with @destroy */
  GDestroyNotify destroy;
} TagdRequest;

/* @owner: the object given to the call; @current: the reply is of the session open now. The
 * function frees @data. */
typedef void (*TagdSessionReplyFunc) (gpointer owner, GVariant *result, const GError *error,
                                      gboolean current, gpointer data);

/* @kind: "field", "cloud": the id's key in params, the prefix of open and close; ids are
 * gtk-<prefix>-N. */
TagdSession *_tagd_session_new   (const char *kind, const char *prefix);
/* In the widget's constructed and dispose. */
void         _tagd_session_start (TagdSession *self);
void         _tagd_session_stop  (TagdSession *self);

/* Started, and its first open sent (not only scheduled). */
gboolean     _tagd_session_started (TagdSession *self);
/* Open in the tagd that runs now: calls and notifications reach it. */
gboolean     _tagd_session_is_live (TagdSession *self);
/* A new session (new id) from the widget's state, closing the old one if @close_old. */
void         _tagd_session_reopen  (TagdSession *self, gboolean close_old);

/* A request: sent now if live, else held (dropped if LOCAL); @extra is consumed if floating
 * and @data owned (freed with @destroy). TRUE if it went out now. */
gboolean     _tagd_session_request (TagdSession *self, const char *method, GVariant *extra,
                                    guint flags, gpointer data, GDestroyNotify destroy);
/* A call that is not held (the session must be live); @owner (may be NULL) is kept alive
 * until @func (may be NULL) has its reply. */
void         _tagd_session_call    (TagdSession *self, const char *method, GVariant *extra,
                                    gpointer owner, TagdSessionReplyFunc func, gpointer data);
/* A notification, dropped unless live (the next open carries the widget's state). */
void         _tagd_session_notify  (TagdSession *self, const char *method, GVariant *extra);

/* For the connection: tagd is up again; a notification for this session's id. */
void         _tagd_session_restarted (TagdSession *self);
void         _tagd_session_dispatch  (TagdSession *self, const char *method, GVariant *params);

/* Warns of a failed request, unless it failed because tagd restarted. */
void         _tagd_report_error (const char *method, const GError *error);

G_END_DECLS
