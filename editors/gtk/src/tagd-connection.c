/* tagd-connection.c: one tagd child per application, spoken to with jsonrpc-glib.
 *
 * Every TagdEntry and TagdCloud of a process shares this connection, the way an editor shares
 * one language-server connection between its buffers. The child is spawned with GSubprocess on
 * first use; its stdout and stdin pipes become one GIOStream for JsonrpcClient (Content-Length
 * framing). When the child dies it is spawned again and every registered session is asked to
 * re-open itself from its widget's own state, so nothing the user typed is lost.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <jsonrpc-glib.h>
#include <locale.h>
#include <unistd.h>

#include "tagd-session.h"

G_DEFINE_QUARK (tagd-error-quark, tagd_error)

/* The library's own strings ("Remove %s") come from its gettext domain, installed with it. */
void
_tagd_i18n_init (void)
{
  static gsize done;
  if (g_once_init_enter (&done))
    {
      /* $TAGD_GTK_LOCALEDIR: the catalogues of a build tree (run-demo and `meson devenv` set
       * it to _build/po), for running uninstalled; else the installed ones. */
      const char *dir = g_getenv ("TAGD_GTK_LOCALEDIR");
      bindtextdomain (GETTEXT_PACKAGE, dir != NULL && dir[0] != '\0' ? dir : LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&done, 1);
    }
}

struct _TagdConnection {
  GObject         parent_instance;
  char           *program;
  GSubprocess    *proc;
  JsonrpcClient  *client;
  guint           generation;   /* bumped for every child spawned */
  gboolean        up;           /* the current child answered initialize */
  guint           restarts;
  guint           quick_deaths; /* children that died before answering initialize */
  guint           respawn_source;
  gboolean        gave_up;      /* tagd cannot be started: stop trying (and warning) */
  GHashTable     *sessions;     /* id -> TagdSession* (not owned) */
  guint           next_session;
  GHashTable     *vaults;       /* folder (absolute path) -> how many widgets name it */
};

enum { PROP_0, PROP_PROGRAM, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TagdConnection, tagd_connection, G_TYPE_OBJECT)

static void spawn (TagdConnection *self);
static GVariant *workspace_folders (TagdConnection *self, const char *only);

/* Where tagd is: the configured program, else $TAGD, else `tagd` on PATH. Nothing of the build
 * tree is compiled in: an installed library finds the installed tagd. */
static char *
find_program (TagdConnection *self)
{
  const char *env = g_getenv ("TAGD");
  char *found;

  if (self->program != NULL && self->program[0] != '\0')
    return g_strdup (self->program);
  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  found = g_find_program_in_path ("tagd");
  return found != NULL ? found : g_strdup ("tagd");
}

static void
reopen_all (TagdConnection *self)
{
  /* Re-opening renames sessions, so collect first. */
  GList *sessions = g_hash_table_get_values (self->sessions);
  for (GList *l = sessions; l != NULL; l = l->next)
    _tagd_session_restarted (l->data);
  g_list_free (sessions);
}

typedef struct {
  TagdConnection *self;
  guint           generation;
  TagdReplyFunc   func;
  gpointer        user_data;
} Call;

static void
on_initialize (GObject *source, GAsyncResult *res, gpointer data)
{
  Call *call = data;
  TagdConnection *self = call->self;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;
  gboolean ok = jsonrpc_client_call_finish (JSONRPC_CLIENT (source), res, &reply, &error);

  if (call->generation == self->generation && ok)
    {
      gboolean first = self->restarts == 0 && !self->up;
      self->up = TRUE;
      self->quick_deaths = 0;
      jsonrpc_client_send_notification_async (self->client, "initialized", NULL, NULL, NULL, NULL);
      if (!first)
        reopen_all (self);
    }
  else if (call->generation == self->generation)
    g_debug ("tagd: initialize failed: %s", error->message);
  g_object_unref (self);
  g_free (call);
}

static void
on_notification (JsonrpcClient  *client,
                 const char     *method,
                 GVariant       *params,
                 TagdConnection *self)
{
  const char *id = NULL;
  TagdSession *s;

  if (client != self->client || params == NULL)
    return;
  if (!g_variant_lookup (params, "field", "&s", &id) && !g_variant_lookup (params, "cloud", "&s", &id))
    return;
  s = g_hash_table_lookup (self->sessions, id);
  if (s != NULL)
    _tagd_session_dispatch (s, method, params);
}

static gboolean
respawn_cb (gpointer data)
{
  TagdConnection *self = data;
  self->respawn_source = 0;
  spawn (self);
  return G_SOURCE_REMOVE;
}

static void
on_child_exit (GObject *source, GAsyncResult *res, gpointer data)
{
  Call *call = data;
  TagdConnection *self = call->self;

  g_subprocess_wait_finish (G_SUBPROCESS (source), res, NULL);
  if (call->generation == self->generation)
    {
      guint delay;

      g_debug ("tagd (generation %u) exited; restarting", call->generation);
      if (!self->up)
        self->quick_deaths++;
      self->up = FALSE;
      self->restarts++;
      /* Calls in flight on the old client are answered with TAGD_ERROR_RESTARTED. */
      self->generation++;
      if (self->client != NULL)
        jsonrpc_client_close (self->client, NULL, NULL);
      g_clear_object (&self->client);
      g_clear_object (&self->proc);
      if (self->quick_deaths > 8)
        self->gave_up = TRUE;
      if (self->gave_up)
        g_warning ("tagd keeps dying before it answers initialize; giving up (program: %s)",
                   self->program ? self->program : "(found automatically)");
      else
        {
          delay = 50u << MIN (self->quick_deaths, 5u);
          self->respawn_source = g_timeout_add (delay, respawn_cb, self);
        }
    }
  g_object_unref (self);
  g_free (call);
}

static void
on_client_failed (JsonrpcClient *client, TagdConnection *self)
{
  /* The stream broke (EOF or garbage): make sure the child is gone so on_child_exit restarts. */
  if (client == self->client && self->proc != NULL)
    g_subprocess_force_exit (self->proc);
}

/* The language the application's messages are in: LC_MESSAGES once the application has called
 * setlocale(), else what the environment asks for ($LANGUAGE, $LC_ALL, $LC_MESSAGES, $LANG). */
static const char *
app_locale (void)
{
  const char *current = setlocale (LC_MESSAGES, NULL);
  if (current != NULL && !g_str_equal (current, "C") && !g_str_equal (current, "POSIX"))
    return current;
  return g_get_language_names ()[0];
}

/* [{uri, name}] for @only, or for every vault the widgets name (the folders a new child is
 * initialized with, so a restart keeps them). */
static GVariant *
workspace_folders (TagdConnection *self, const char *only)
{
  GVariantBuilder b;
  GHashTableIter iter;
  gpointer key;

  g_variant_builder_init (&b, G_VARIANT_TYPE ("aa{sv}"));
  g_hash_table_iter_init (&iter, self->vaults);
  while (only != NULL || g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *folder = only != NULL ? only : key;
      g_autofree char *uri = g_filename_to_uri (folder, NULL, NULL);
      g_autofree char *name = g_path_get_basename (folder);
      GVariantBuilder f;

      if (uri != NULL)
        {
          g_variant_builder_init (&f, G_VARIANT_TYPE_VARDICT);
          g_variant_builder_add (&f, "{sv}", "uri", g_variant_new_string (uri));
          g_variant_builder_add (&f, "{sv}", "name", g_variant_new_string (name));
          g_variant_builder_add_value (&b, g_variant_builder_end (&f));
        }
      if (only != NULL)
        break;
    }
  return g_variant_builder_end (&b);
}

static void
spawn (TagdConnection *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *program = find_program (self);
  const char *argv[] = { program, NULL };
  g_autoptr (GIOStream) stream = NULL;
  GVariantBuilder caps;
  GVariant *params;
  Call *call;

  self->generation++;
  self->up = FALSE;
  self->proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  if (self->proc == NULL)
    {
      g_warning ("tagd: cannot start %s: %s", program, error->message);
      self->gave_up = TRUE;
      return;
    }
  stream = g_simple_io_stream_new (g_subprocess_get_stdout_pipe (self->proc),
                                   g_subprocess_get_stdin_pipe (self->proc));
  self->client = jsonrpc_client_new (stream);
  g_signal_connect_object (self->client, "notification", G_CALLBACK (on_notification), self, 0);
  g_signal_connect_object (self->client, "failed", G_CALLBACK (on_client_failed), self, 0);
  jsonrpc_client_start_listening (self->client);

  call = g_new0 (Call, 1);
  call->self = g_object_ref (self);
  call->generation = self->generation;
  g_subprocess_wait_async (self->proc, NULL, on_child_exit, call);

  /* GTK positions count in characters (code points): ask for utf-32 so none are converted. */
  g_variant_builder_init (&caps, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&caps, "{sv}", "general",
                         g_variant_new_parsed ("{'positionEncodings': <['utf-32']>}"));
  /* Announcements come in the application's language (Protocol 1.2 `locale`). */
  params = g_variant_new_parsed ("{'processId': <%x>, 'capabilities': %v, 'locale': <%s>, 'workspaceFolders': %v}",
                                 (gint64) getpid (), g_variant_builder_end (&caps), app_locale (),
                                 workspace_folders (self, NULL));
  call = g_new0 (Call, 1);
  call->self = g_object_ref (self);
  call->generation = self->generation;
  jsonrpc_client_call_async (self->client, "initialize", params, NULL, on_initialize, call);
}

static void
ensure_started (TagdConnection *self)
{
  if (self->proc == NULL && self->respawn_source == 0 && !self->gave_up)
    spawn (self);
}

static gboolean
fail_later (gpointer data)
{
  Call *call = data;
  g_autoptr (GError) error = g_error_new_literal (TAGD_ERROR, TAGD_ERROR_RESTARTED, "tagd is restarting");
  call->func (NULL, error, call->user_data);
  g_object_unref (call->self);
  g_free (call);
  return G_SOURCE_REMOVE;
}

/* jsonrpc-glib 3.42 reads an error's code as an int32 ("i"), but a JSON integer arrives as
 * int64 ("x"), so it gives up and puts the printed error object in a G_IO_ERROR_FAILED message:
 * "{'code': <int64 -32602>, 'message': <'...'>}". Turn that back into code and message
 * (TAGD_ERROR domain, the JSON-RPC code as the error code). */
static GError *
protocol_error (GError *error)
{
  g_autoptr (GVariant) v = NULL;
  const char *message = NULL;
  double code;
  GError *out;

  if (error == NULL || error->message[0] != '{')
    return error;
  v = g_variant_parse (G_VARIANT_TYPE_VARDICT, error->message, NULL, NULL, NULL);
  if (v == NULL)
    return error;
  code = _tagd_variant_number (v, "code", 0);
  if (code == 0 || !g_variant_lookup (v, "message", "&s", &message))
    return error;
  out = g_error_new (TAGD_ERROR, (int) code, "%s (%d)", message, (int) code);
  g_error_free (error);
  return out;
}

static void
on_reply (GObject *source, GAsyncResult *res, gpointer data)
{
  Call *call = data;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;

  jsonrpc_client_call_finish (JSONRPC_CLIENT (source), res, &reply, &error);
  error = protocol_error (error);
  if (call->generation != call->self->generation)
    {
      g_clear_error (&error);
      error = g_error_new_literal (TAGD_ERROR, TAGD_ERROR_RESTARTED, "tagd restarted");
      g_clear_pointer (&reply, g_variant_unref);
    }
  call->func (reply, error, call->user_data);
  g_object_unref (call->self);
  g_free (call);
}

void
_tagd_connection_call (TagdConnection *self,
                       const char     *method,
                       GVariant       *params,
                       TagdReplyFunc   func,
                       gpointer        user_data)
{
  Call *call = g_new0 (Call, 1);

  ensure_started (self);
  call->self = g_object_ref (self);
  call->generation = self->generation;
  call->func = func;
  call->user_data = user_data;
  if (self->client == NULL)
    {
      if (params != NULL)
        g_variant_unref (g_variant_ref_sink (params));
      g_idle_add (fail_later, call);
      return;
    }
  jsonrpc_client_call_async (self->client, method, params, NULL, on_reply, call);
}

void
_tagd_connection_notify (TagdConnection *self,
                         const char     *method,
                         GVariant       *params)
{
  ensure_started (self);
  if (self->client == NULL)
    {
      /* No child right now: the session is re-opened with its whole text when one is up. */
      if (params != NULL)
        g_variant_unref (g_variant_ref_sink (params));
      return;
    }
  jsonrpc_client_send_notification_async (self->client, method, params, NULL, NULL, NULL);
}

gboolean
_tagd_connection_is_up (TagdConnection *self)
{
  return self->client != NULL;
}

guint
_tagd_connection_generation (TagdConnection *self)
{
  ensure_started (self);
  return self->generation;
}

char *
_tagd_connection_register (TagdConnection *self,
                           const char     *prefix,
                           TagdSession    *session)
{
  char *id = g_strdup_printf ("gtk-%s-%u", prefix, ++self->next_session);

  g_hash_table_insert (self->sessions, g_strdup (id), session);
  ensure_started (self);
  return id;
}

char *
_tagd_connection_rename (TagdConnection *self,
                         const char     *old_id,
                         const char     *prefix)
{
  TagdSession *s = g_hash_table_lookup (self->sessions, old_id);
  char *id;

  g_return_val_if_fail (s != NULL, NULL);
  g_hash_table_remove (self->sessions, old_id);
  id = g_strdup_printf ("gtk-%s-%u", prefix, ++self->next_session);
  g_hash_table_insert (self->sessions, g_strdup (id), s);
  return id;
}

void
_tagd_connection_unregister (TagdConnection *self,
                             const char     *id)
{
  g_hash_table_remove (self->sessions, id);
}

/* ---- GVariant helpers ---- */

GVariant *
_tagd_variant_lookup (GVariant *dict, const char *key)
{
  GVariant *v;

  if (dict == NULL || !g_variant_is_of_type (dict, G_VARIANT_TYPE_VARDICT))
    return NULL;
  v = g_variant_lookup_value (dict, key, NULL);
  while (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *inner = g_variant_get_variant (v);
      g_variant_unref (v);
      v = inner;
    }
  return v;
}

static double
number_of (GVariant *v, double fallback)
{
  if (v == NULL)
    return fallback;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    return (double) g_variant_get_int64 (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    return g_variant_get_double (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    return (double) g_variant_get_int32 (v);
  return fallback;
}

double
_tagd_variant_number (GVariant *dict, const char *key, double fallback)
{
  g_autoptr (GVariant) v = _tagd_variant_lookup (dict, key);
  return number_of (v, fallback);
}

char **
_tagd_variant_strv (GVariant *value)
{
  GPtrArray *out = g_ptr_array_new ();
  GVariantIter iter;
  GVariant *child;

  if (value != NULL && g_variant_is_container (value))
    {
      g_variant_iter_init (&iter, value);
      while ((child = g_variant_iter_next_value (&iter)))
        {
          GVariant *s = child;
          if (g_variant_is_of_type (s, G_VARIANT_TYPE_VARIANT))
            s = g_variant_get_variant (child);
          else
            g_variant_ref (s);
          if (g_variant_is_of_type (s, G_VARIANT_TYPE_STRING))
            g_ptr_array_add (out, g_variant_dup_string (s, NULL));
          g_variant_unref (s);
          g_variant_unref (child);
        }
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

gboolean
_tagd_strv_equal (char **a, char **b)
{
  guint na = a ? g_strv_length (a) : 0, nb = b ? g_strv_length (b) : 0;
  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (g_strcmp0 (a[i], b[i]) != 0)
      return FALSE;
  return TRUE;
}

/* ---- GObject ---- */

static void
tagd_connection_finalize (GObject *object)
{
  TagdConnection *self = TAGD_CONNECTION (object);
  g_clear_handle_id (&self->respawn_source, g_source_remove);
  g_clear_object (&self->client);
  g_clear_object (&self->proc);
  g_clear_pointer (&self->sessions, g_hash_table_unref);
  g_clear_pointer (&self->vaults, g_hash_table_unref);
  g_free (self->program);
  G_OBJECT_CLASS (tagd_connection_parent_class)->finalize (object);
}

static void
tagd_connection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TagdConnection *self = TAGD_CONNECTION (object);
  switch (prop_id)
    {
    case PROP_PROGRAM:
      g_value_set_string (value, self->program);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_connection_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TagdConnection *self = TAGD_CONNECTION (object);
  switch (prop_id)
    {
    case PROP_PROGRAM:
      tagd_connection_set_program (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_connection_class_init (TagdConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tagd_connection_finalize;
  object_class->get_property = tagd_connection_get_property;
  object_class->set_property = tagd_connection_set_property;

  /**
   * TagdConnection:program:
   *
   * The tagd executable to spawn. When unset: `$TAGD`, else `tagd` on `PATH`. Takes effect the
   * next time a child is spawned.
   */
  properties[PROP_PROGRAM] =
    g_param_spec_string ("program", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tagd_connection_init (TagdConnection *self)
{
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->vaults = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* ---- vaults (SPEC §6d): the folders the widgets' `vault` properties name */

static void
tell_folders (TagdConnection *self, const char *folder, gboolean added)
{
  g_autoptr (GVariant) one = g_variant_ref_sink (workspace_folders (self, folder));
  g_autoptr (GVariant) none = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE_VARDICT, NULL, 0));

  /* No child: the next one is initialized with the folders. A child still starting gets the
   * notification after its initialize, before any later request (tagd reads in order). */
  if (self->client == NULL)
    return;
  jsonrpc_client_send_notification_async (self->client, "workspace/didChangeWorkspaceFolders",
                                          g_variant_new_parsed ("{'event': <{'added': <%v>, 'removed': <%v>}>}",
                                                                added ? one : none, added ? none : one),
                                          NULL, NULL, NULL);
}

/* A widget names @folder as its vault: tagd reads it (once, however many widgets name it). */
void
_tagd_connection_add_vault (TagdConnection *self, const char *folder)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->vaults, folder));

  g_hash_table_insert (self->vaults, g_strdup (folder), GUINT_TO_POINTER (n + 1));
  if (n == 0)
    {
      ensure_started (self);
      tell_folders (self, folder, TRUE);
    }
}

void
_tagd_connection_remove_vault (TagdConnection *self, const char *folder)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->vaults, folder));

  if (n > 1)
    g_hash_table_insert (self->vaults, g_strdup (folder), GUINT_TO_POINTER (n - 1));
  else if (n == 1)
    {
      tell_folders (self, folder, FALSE);
      g_hash_table_remove (self->vaults, folder);
    }
}

/**
 * tagd_connection_get_default:
 *
 * The application's one connection to tagd, shared by every widget. The child is spawned when
 * the first widget needs it.
 *
 * Returns: (transfer none): the connection
 */
TagdConnection *
tagd_connection_get_default (void)
{
  static TagdConnection *instance;
  if (instance == NULL)
    instance = g_object_new (TAGD_TYPE_CONNECTION, NULL);
  return instance;
}

/**
 * tagd_connection_get_program:
 * @self: the connection
 *
 * Returns: (nullable): the configured program, if any
 */
const char *
tagd_connection_get_program (TagdConnection *self)
{
  g_return_val_if_fail (TAGD_IS_CONNECTION (self), NULL);
  return self->program;
}

/**
 * tagd_connection_set_program:
 * @self: the connection
 * @program: (nullable): path of the tagd executable
 *
 * Sets the tagd executable. Call it before the first widget is created.
 */
void
tagd_connection_set_program (TagdConnection *self, const char *program)
{
  g_return_if_fail (TAGD_IS_CONNECTION (self));
  if (g_strcmp0 (self->program, program) == 0)
    return;
  self->gave_up = FALSE;
  g_free (self->program);
  self->program = g_strdup (program);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRAM]);
}

/**
 * tagd_connection_get_pid:
 * @self: the connection
 *
 * Returns: the process id of the running tagd child, or 0
 */
GPid
tagd_connection_get_pid (TagdConnection *self)
{
  const char *id;
  g_return_val_if_fail (TAGD_IS_CONNECTION (self), 0);
  if (self->proc == NULL)
    return 0;
  id = g_subprocess_get_identifier (self->proc);
  return id ? (GPid) g_ascii_strtoll (id, NULL, 10) : 0;
}

/**
 * tagd_connection_get_restart_count:
 * @self: the connection
 *
 * Returns: how many times the tagd child has died and been spawned again
 */
guint
tagd_connection_get_restart_count (TagdConnection *self)
{
  g_return_val_if_fail (TAGD_IS_CONNECTION (self), 0);
  return self->restarts;
}

static void
on_public_reply (GVariant *result, const GError *error, gpointer data)
{
  GTask *task = data;
  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_pointer (task, result != NULL ? g_variant_ref (result) : NULL, (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

/**
 * tagd_connection_call_async:
 * @self: the connection
 * @method: a tagd method that needs no widget's session, e.g. `document/tags`,
 *   `document/setTags` or `vault/notes` (Protocol/README.md, Protocol/vault.md)
 * @params: (nullable): its params, an `a{sv}` (consumed if floating)
 * @cancellable: (nullable): a #GCancellable
 * @callback: what to call with the reply
 * @user_data: data for @callback
 *
 * Calls a method of tagd, for what an application does beside the widgets (a notes app
 * reading and writing a note's tags). If tagd restarts before it answers, the call fails with
 * an error; call again.
 */
void
tagd_connection_call_async (TagdConnection      *self,
                            const char          *method,
                            GVariant            *params,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TAGD_IS_CONNECTION (self));
  g_return_if_fail (method != NULL);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tagd_connection_call_async);
  _tagd_connection_call (self, method, params, on_public_reply, task);
}

/**
 * tagd_connection_call_finish:
 * @self: the connection
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the method's result, or %NULL with @error set
 */
GVariant *
tagd_connection_call_finish (TagdConnection *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
