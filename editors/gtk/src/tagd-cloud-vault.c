/* tagd-cloud-vault.c: a cloud showing a vault (SPEC §6d): the folder's tags as its tags, those
 * carried by the most notes first (`vault/tags`), and the notes carrying every selected tag
 * (`vault/notes`) as its `notes` and `note-titles`. The folder is named to tagd through the
 * connection (initialize's workspace folders, then workspace/didChangeWorkspaceFolders).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-cloud-private.h"

/* Most tags a vault cloud shows. */
#define VAULT_TAGS 40

/* The seed's ten tints, given to a vault's tags in turn. */
static const char *palette[] = {
  "#0a84ff", "#ff375f", "#ff9f0a", "#40c8e0", "#bf5af2", "#30d158", "#ff453a", "#5e5ce6", "#66d4cf", "#ffd60a",
};

typedef struct {
  TagdCloud *cloud;   /* a reference */
  guint      serial;
} VaultCall;

static VaultCall *
vault_call (TagdCloud *self, guint serial)
{
  VaultCall *call = g_new0 (VaultCall, 1);
  call->cloud = g_object_ref (self);
  call->serial = serial;
  return call;
}

static void
vault_call_free (VaultCall *call)
{
  g_object_unref (call->cloud);
  g_free (call);
}

static void
set_notes (TagdCloud *self, char **notes, char **titles /* both transfer full */)
{
  if (_tagd_strv_equal (self->notes, notes) && _tagd_strv_equal (self->note_titles, titles))
    {
      g_strfreev (notes);
      g_strfreev (titles);
      return;
    }
  g_strfreev (self->notes);
  g_strfreev (self->note_titles);
  self->notes = notes;
  self->note_titles = titles;
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_cloud_properties[PROP_NOTES]);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_cloud_properties[PROP_NOTE_TITLES]);
}

/* A note's title: tagd's, else its file name without the extension. */
static char *
note_title (GVariant *note, const char *uri)
{
  const char *title = NULL;
  g_autofree char *path = NULL;
  g_autofree char *base = NULL;
  char *dot;

  if (g_variant_lookup (note, "title", "&s", &title) && title[0] != '\0')
    return g_strdup (title);
  path = g_filename_from_uri (uri, NULL, NULL);
  base = g_path_get_basename (path != NULL ? path : uri);
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  return g_steal_pointer (&base);
}

static void
on_notes_reply (GVariant *result, const GError *error, gpointer data)
{
  VaultCall *call = data;
  TagdCloud *self = call->cloud;
  g_autoptr (GVariant) notes = NULL;
  GPtrArray *uris, *titles;

  if (error != NULL)
    _tagd_report_error ("vault/notes", error);
  else if (call->serial == self->notes_serial && self->vault != NULL)
    {
      notes = _tagd_variant_lookup (result, "notes");
      uris = g_ptr_array_new ();
      titles = g_ptr_array_new ();
      for (gsize i = 0; notes != NULL && i < g_variant_n_children (notes); i++)
        {
          g_autoptr (GVariant) it = g_variant_get_child_value (notes, i);
          g_autoptr (GVariant) n = g_variant_is_of_type (it, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (it) : g_variant_ref (it);
          const char *uri = NULL;
          if (g_variant_lookup (n, "uri", "&s", &uri))
            {
              g_ptr_array_add (uris, g_strdup (uri));
              g_ptr_array_add (titles, note_title (n, uri));
            }
        }
      g_ptr_array_add (uris, NULL);
      g_ptr_array_add (titles, NULL);
      set_notes (self, (char **) g_ptr_array_free (uris, FALSE), (char **) g_ptr_array_free (titles, FALSE));
    }
  vault_call_free (call);
}

/* The notes carrying every selected tag (none for no selection). */
void
_tagd_cloud_vault_selection_changed (TagdCloud *self)
{
  const char *empty[] = { NULL };

  if (self->vault == NULL)
    return;
  self->notes_serial++;
  if (self->selection[0] == NULL)
    {
      set_notes (self, g_strdupv ((char **) empty), g_strdupv ((char **) empty));
      return;
    }
  _tagd_connection_call (tagd_connection_get_default (), "vault/notes",
                         g_variant_new_parsed ("{'tags': <%^as>, 'match': <'all'>}", self->selection),
                         on_notes_reply, vault_call (self, self->notes_serial));
}

static void
on_tags_reply (GVariant *result, const GError *error, gpointer data)
{
  VaultCall *call = data;
  TagdCloud *self = call->cloud;
  g_autoptr (GVariant) tags = NULL;

  if (error != NULL)
    _tagd_report_error ("vault/tags", error);
  else if (call->serial == self->tags_serial && self->vault != NULL)
    {
      GPtrArray *titles = g_ptr_array_new_with_free_func (g_free);
      GPtrArray *tints = g_ptr_array_new ();

      tags = _tagd_variant_lookup (result, "tags");
      for (gsize i = 0; tags != NULL && i < g_variant_n_children (tags); i++)
        {
          g_autoptr (GVariant) it = g_variant_get_child_value (tags, i);
          g_autoptr (GVariant) t = g_variant_is_of_type (it, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (it) : g_variant_ref (it);
          const char *tag = NULL;
          if (g_variant_lookup (t, "tag", "&s", &tag))
            {
              g_ptr_array_add (titles, g_strdup (tag));
              g_ptr_array_add (tints, (gpointer) palette[(titles->len - 1) % G_N_ELEMENTS (palette)]);
            }
        }
      g_ptr_array_add (titles, NULL);
      g_ptr_array_add (tints, NULL);
      if (!_tagd_strv_equal (self->titles, (char **) titles->pdata))
        tagd_cloud_set_tags (self, (const char * const *) titles->pdata, (const char * const *) tints->pdata);
      g_ptr_array_unref (titles);
      g_ptr_array_free (tints, TRUE);
      _tagd_cloud_vault_selection_changed (self);
    }
  vault_call_free (call);
}

/**
 * tagd_cloud_reload:
 * @self: the cloud
 *
 * With a vault, asks tagd again for its tags and the notes of the selection (after the
 * application changed a note; tagd itself notices changes on disk within a second).
 */
void
tagd_cloud_reload (TagdCloud *self)
{
  g_return_if_fail (TAGD_IS_CLOUD (self));
  if (self->vault == NULL)
    return;
  self->tags_serial++;
  _tagd_connection_call (tagd_connection_get_default (), "vault/tags",
                         g_variant_new_parsed ("{'limit': <%x>}", (gint64) VAULT_TAGS),
                         on_tags_reply, vault_call (self, self->tags_serial));
}

/**
 * tagd_cloud_get_vault:
 * @self: the cloud
 *
 * Returns: (nullable) (type filename): the folder of notes the cloud shows
 */
const char *
tagd_cloud_get_vault (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  return self->vault;
}

/**
 * tagd_cloud_set_vault:
 * @self: the cloud
 * @vault: (nullable) (type filename): a folder of Markdown and Org notes, or %NULL
 */
void
tagd_cloud_set_vault (TagdCloud *self, const char *vault)
{
  const char *empty[] = { NULL };

  g_return_if_fail (TAGD_IS_CLOUD (self));
  if (g_strcmp0 (self->vault, vault) == 0)
    return;
  _tagd_cloud_vault_dispose (self);
  self->vault = vault != NULL && vault[0] != '\0' ? g_canonicalize_filename (vault, NULL) : NULL;
  if (self->vault != NULL)
    {
      _tagd_connection_add_vault (tagd_connection_get_default (), self->vault);
      tagd_cloud_reload (self);
    }
  else
    set_notes (self, g_strdupv ((char **) empty), g_strdupv ((char **) empty));
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_cloud_properties[PROP_VAULT]);
}

/**
 * tagd_cloud_get_notes:
 * @self: the cloud
 *
 * Returns: (transfer none) (array zero-terminated=1): the URIs of the notes carrying the selection
 */
const char * const *
tagd_cloud_get_notes (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  return (const char * const *) self->notes;
}

/**
 * tagd_cloud_get_note_titles:
 * @self: the cloud
 *
 * Returns: (transfer none) (array zero-terminated=1): the titles of those notes
 */
const char * const *
tagd_cloud_get_note_titles (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  return (const char * const *) self->note_titles;
}

void
_tagd_cloud_vault_dispose (TagdCloud *self)
{
  if (self->vault != NULL)
    _tagd_connection_remove_vault (tagd_connection_get_default (), self->vault);
  g_clear_pointer (&self->vault, g_free);
  self->tags_serial++;
  self->notes_serial++;
}
