/* tagd-session.c: one session in tagd, shared by the entry and the cloud (tagd-session.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-session.h"

struct _TagdSession {
  GObject         parent_instance;
  char           *kind;
  char           *prefix;
  TagdConnection *conn;
  char           *id;              /* NULL before start and after stop */
  guint           open_source;     /* the first open, on an idle */
  guint           open_generation; /* the connection's generation when open was sent */
  guint           notifications;   /* notifications dispatched */
  guint64         next_seq;
  GQueue          held;            /* TagdRequest*, by seq */
};

enum {
  SIGNAL_OPEN_PARAMS,
  SIGNAL_OPEN_SENT,
  SIGNAL_RESENT,
  SIGNAL_HELD_SENT,
  SIGNAL_OPENED,
  SIGNAL_ANSWERED,
  SIGNAL_NOTIFICATION,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TagdSession, tagd_session, G_TYPE_OBJECT)

/* A call in flight; it holds a reference on the session, whose widget may be gone by the
 * reply (its handlers are disconnected then, so the reply reaches no one). */
typedef struct {
  TagdSession          *session;
  char                 *id;             /* the session's id when sent */
  guint                 notifications;  /* session->notifications when sent */
  TagdRequest          *request;        /* a request, or NULL for a call */
  GObject              *owner;          /* a call's, referenced */
  TagdSessionReplyFunc  func;
  gpointer              data;
} Call;

void
_tagd_report_error (const char *method, const GError *error)
{
  if (g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED))
    return;
  /* A refusal from tagd is a bug in the widget: say so loudly (the tests fail on warnings). */
  g_warning ("tagd: %s failed: %s", method, error->message);
}

static void
request_free (TagdRequest *request)
{
  g_free (request->method);
  g_clear_pointer (&request->extra, g_variant_unref);
  if (request->data != NULL && request->destroy != NULL)
    request->destroy (request->data);
  g_free (request);
}

/* {<kind>: id} and the entries of @extra (not consumed). */
static GVariant *
params_with_id (TagdSession *self, GVariant *extra)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", self->kind, g_variant_new_string (self->id));
  if (extra != NULL)
    {
      GVariantIter iter;
      const char *key;
      GVariant *value;
      g_variant_iter_init (&iter, extra);
      while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
        {
          g_variant_builder_add (&b, "{sv}", key, value);
          g_variant_unref (value);
        }
    }
  return g_variant_builder_end (&b);
}

static void
hold (TagdSession *self, TagdRequest *request)
{
  GList *l = self->held.tail;
  while (l != NULL && ((TagdRequest *) l->data)->seq > request->seq)
    l = l->prev;
  if (l == NULL)
    g_queue_push_head (&self->held, request);
  else
    g_queue_insert_after (&self->held, l, request);
}

gboolean
_tagd_session_started (TagdSession *self)
{
  return self->id != NULL && self->open_source == 0;
}

gboolean
_tagd_session_is_live (TagdSession *self)
{
  return _tagd_session_started (self) &&
         self->open_generation == _tagd_connection_generation (self->conn);
}

static void send_open (TagdSession *self);

static void
on_reply (GVariant *result, const GError *error, gpointer data)
{
  Call *call = data;
  TagdSession *self = call->session;
  gboolean current = self->id != NULL && g_strcmp0 (call->id, self->id) == 0;
  TagdRequest *request = call->request;

  if (request != NULL && error != NULL && g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED) &&
      !(request->flags & TAGD_REQUEST_LOCAL) && call->notifications == self->notifications &&
      self->id != NULL)
    {
      /* tagd died with the request: nothing it did reached the widget, whose state the next
       * session starts from, so the request is sent again there, in its place. */
      hold (self, request);
      request = NULL;
      if (_tagd_session_is_live (self))
        send_open (self);
    }
  else if (request != NULL)
    g_signal_emit (self, signals[SIGNAL_ANSWERED], 0, request, result, error, current);
  else if (call->func != NULL)
    call->func (call->owner, result, error, current, call->data);
  else if (error != NULL && !g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED))
    g_debug ("tagd: %s", error->message);
  if (request != NULL)
    request_free (request);
  g_clear_object (&call->owner);
  g_object_unref (self);
  g_free (call->id);
  g_free (call);
}

static void
send (TagdSession *self, const char *method, GVariant *extra, TagdRequest *request,
      gpointer owner, TagdSessionReplyFunc func, gpointer data)
{
  Call *call = g_new0 (Call, 1);

  call->owner = owner != NULL ? g_object_ref (owner) : NULL;
  call->session = g_object_ref (self);
  call->id = g_strdup (self->id);
  call->notifications = self->notifications;
  call->request = request;
  call->func = func;
  call->data = data;
  _tagd_connection_call (self->conn, method, params_with_id (self, extra), on_reply, call);
}

static void
on_open_reply (gpointer owner, GVariant *result, const GError *error, gboolean current, gpointer data)
{
  TagdSession *self = owner;
  g_autofree char *method = g_strconcat (self->kind, "/open", NULL);

  if (error != NULL)
    _tagd_report_error (method, error);
  else if (current)
    g_signal_emit (self, signals[SIGNAL_OPENED], 0, result);
}

static void
send_open (TagdSession *self)
{
  g_autofree char *method = g_strconcat (self->kind, "/open", NULL);
  g_autoptr (GVariant) params = NULL;
  TagdRequest *first = g_queue_peek_head (&self->held);

  g_clear_handle_id (&self->open_source, g_source_remove);
  self->open_generation = _tagd_connection_generation (self->conn);
  g_signal_emit (self, signals[SIGNAL_OPEN_PARAMS], 0, first, &params);
  if (params == NULL)
    params = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
  send (self, method, params, NULL, self, on_open_reply, NULL);
  g_signal_emit (self, signals[SIGNAL_OPEN_SENT], 0, first);
  while (!g_queue_is_empty (&self->held))
    {
      TagdRequest *request = g_queue_pop_head (&self->held);

      /* The reply comes on a later main-loop turn: @request is still there for resent. */
      send (self, request->method, request->extra, request, NULL, NULL, NULL);
      g_signal_emit (self, signals[SIGNAL_RESENT], 0, request, g_queue_peek_head (&self->held));
    }
  g_signal_emit (self, signals[SIGNAL_HELD_SENT], 0);
}

static gboolean
open_idle_cb (gpointer data)
{
  TagdSession *self = data;
  self->open_source = 0;
  send_open (self);
  return G_SOURCE_REMOVE;
}

gboolean
_tagd_session_request (TagdSession *self, const char *method, GVariant *extra, guint flags,
                       gpointer data, GDestroyNotify destroy)
{
  TagdRequest *request = g_new0 (TagdRequest, 1);

  /* A request made before the idle open ran (right after construction) opens first. */
  if (self->open_source != 0)
    send_open (self);
  request->seq = ++self->next_seq;
  request->method = g_strdup (method);
  request->extra = extra != NULL ? g_variant_ref_sink (extra) : NULL;
  request->flags = flags;
  request->data = data;
  request->destroy = destroy;
  if (_tagd_session_is_live (self))
    {
      send (self, method, request->extra, request, NULL, NULL, NULL);
      return TRUE;
    }
  if (self->id == NULL || (flags & TAGD_REQUEST_LOCAL))
    request_free (request);   /* a re-opened session starts without it */
  else
    hold (self, request);
  return FALSE;
}

void
_tagd_session_call (TagdSession *self, const char *method, GVariant *extra,
                    gpointer owner, TagdSessionReplyFunc func, gpointer data)
{
  g_autoptr (GVariant) owned = extra != NULL ? g_variant_ref_sink (extra) : NULL;

  g_return_if_fail (self->id != NULL);
  send (self, method, owned, NULL, owner, func, data);
}

void
_tagd_session_notify (TagdSession *self, const char *method, GVariant *extra)
{
  g_autoptr (GVariant) owned = extra != NULL ? g_variant_ref_sink (extra) : NULL;

  if (_tagd_session_is_live (self))
    _tagd_connection_notify (self->conn, method, params_with_id (self, owned));
}

static void
on_close_reply (GVariant *result, const GError *error, gpointer data)
{
  if (error != NULL && !g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED))
    g_debug ("tagd: close: %s", error->message);
}

static void
send_close (TagdSession *self)
{
  g_autofree char *method = g_strconcat (self->kind, "/close", NULL);
  _tagd_connection_call (self->conn, method, params_with_id (self, NULL), on_close_reply, NULL);
}

void
_tagd_session_reopen (TagdSession *self, gboolean close_old)
{
  char *id;

  if (self->id == NULL)
    return;
  if (close_old && _tagd_session_is_live (self))
    send_close (self);
  id = _tagd_connection_rename (self->conn, self->id, self->prefix);
  g_free (self->id);
  self->id = id;
  if (self->open_source == 0)
    send_open (self);
}

void
_tagd_session_restarted (TagdSession *self)
{
  _tagd_session_reopen (self, FALSE);
}

void
_tagd_session_dispatch (TagdSession *self, const char *method, GVariant *params)
{
  self->notifications++;
  g_signal_emit (self, signals[SIGNAL_NOTIFICATION], g_quark_from_string (method), method, params);
}

/* Registers the session and opens it on an idle, once the widget's construct properties are
 * set. */
void
_tagd_session_start (TagdSession *self)
{
  self->id = _tagd_connection_register (self->conn, self->prefix, self);
  self->open_source = g_idle_add (open_idle_cb, self);
}

/* Closes the session and forgets what is held; replies still on their way reach no one once
 * the widget has disconnected its handlers. */
void
_tagd_session_stop (TagdSession *self)
{
  g_clear_handle_id (&self->open_source, g_source_remove);
  while (!g_queue_is_empty (&self->held))
    request_free (g_queue_pop_head (&self->held));
  if (self->id != NULL)
    {
      if (_tagd_session_is_live (self))
        send_close (self);
      _tagd_connection_unregister (self->conn, self->id);
      g_clear_pointer (&self->id, g_free);
    }
}

static void
tagd_session_finalize (GObject *object)
{
  TagdSession *self = TAGD_SESSION (object);

  _tagd_session_stop (self);
  g_free (self->kind);
  g_free (self->prefix);
  G_OBJECT_CLASS (tagd_session_parent_class)->finalize (object);
}

static void
tagd_session_class_init (TagdSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tagd_session_finalize;

  signals[SIGNAL_OPEN_PARAMS] =
    g_signal_new ("open-params", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_first_wins, NULL, NULL, G_TYPE_VARIANT, 1, G_TYPE_POINTER);
  signals[SIGNAL_OPEN_SENT] =
    g_signal_new ("open-sent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_RESENT] =
    g_signal_new ("resent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_POINTER);
  signals[SIGNAL_HELD_SENT] =
    g_signal_new ("held-sent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_OPENED] =
    g_signal_new ("opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_VARIANT | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_ANSWERED] =
    g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4, G_TYPE_POINTER,
                  G_TYPE_VARIANT | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_BOOLEAN);
  /* Detailed by the method: "notification::field/didUpdate". */
  signals[SIGNAL_NOTIFICATION] =
    g_signal_new ("notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_VARIANT | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
tagd_session_init (TagdSession *self)
{
  g_queue_init (&self->held);
}

TagdSession *
_tagd_session_new (const char *kind, const char *prefix)
{
  TagdSession *self = g_object_new (TAGD_TYPE_SESSION, NULL);

  self->kind = g_strdup (kind);
  self->prefix = g_strdup (prefix);
  self->conn = tagd_connection_get_default ();
  return self;
}
