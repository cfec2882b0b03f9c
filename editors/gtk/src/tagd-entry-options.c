/* tagd-entry-options.c: the entry's field options as properties. They go to field/open, and
 * each change goes to the open field with field/setOptions (every option, as the properties
 * say): tags that break a stricter rule stay, flagged by tagd (tagd-entry-chips.c shows them),
 * and nothing of the history, draft or selection is lost. Suggestions alone change with
 * field/setSuggestions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-entry-private.h"
#include "tagd-enums.h"

/* Every option the properties give, as field/open and field/setOptions take them. */
GVariant *
_tagd_entry_options (TagdEntry *self)
{
  GVariantBuilder opts;

  g_variant_builder_init (&opts, G_VARIANT_TYPE_VARDICT);
  if (self->separators != NULL)
    g_variant_builder_add (&opts, "{sv}", "separators", _tagd_entry_strv_variant (self->separators));
  if (self->max_tags >= 0)
    g_variant_builder_add (&opts, "{sv}", "maxTags", g_variant_new_int64 (self->max_tags));
  if (self->max_tag_length >= 1)
    g_variant_builder_add (&opts, "{sv}", "maxTagLength", g_variant_new_int64 (self->max_tag_length));
  if (self->case_sensitive)
    g_variant_builder_add (&opts, "{sv}", "caseSensitive", g_variant_new_boolean (TRUE));
  if (self->transform != TAGD_TRANSFORM_NONE)
    g_variant_builder_add (&opts, "{sv}", "transform",
                           g_variant_new_string (self->transform == TAGD_TRANSFORM_LOWERCASE ? "lowercase" : "uppercase"));
  if (self->prompt != NULL)
    g_variant_builder_add (&opts, "{sv}", "prompt", g_variant_new_string (self->prompt));
  if (self->pattern != NULL && self->pattern[0] != '\0')
    g_variant_builder_add (&opts, "{sv}", "pattern", g_variant_new_string (self->pattern));
  if (self->allow != NULL)
    g_variant_builder_add (&opts, "{sv}", "allow", _tagd_entry_strv_variant (self->allow));
  if (self->deny != NULL)
    g_variant_builder_add (&opts, "{sv}", "deny", _tagd_entry_strv_variant (self->deny));
  if (self->suggestions != NULL)
    g_variant_builder_add (&opts, "{sv}", "suggestions", _tagd_entry_strv_variant (self->suggestions));
  if (self->backspace_mode != TAGD_BACKSPACE_MODE_REMOVE)
    g_variant_builder_add (&opts, "{sv}", "backspace",
                           g_variant_new_string (self->backspace_mode == TAGD_BACKSPACE_MODE_SELECT ? "select" : "edit"));
  if (self->commit_on_blur)
    g_variant_builder_add (&opts, "{sv}", "commitOnBlur", g_variant_new_boolean (TRUE));
  if (self->history >= 0)
    g_variant_builder_add (&opts, "{sv}", "history", g_variant_new_int64 (self->history));

  if (self->vault != NULL)
    g_variant_builder_add (&opts, "{sv}", "suggestFromVault", g_variant_new_boolean (TRUE));
  return g_variant_builder_end (&opts);
}

/* An option changed: tagd's open field takes it (a session not open yet, or re-opened after
 * a restart, gets it with its field/open). */
static void
send_options (TagdEntry *self)
{
  if (_tagd_session_is_live (self->session))
    _tagd_entry_request (self, "field/setOptions",
                         g_variant_new_parsed ("{'options': %v}", _tagd_entry_options (self)), OP_LOCAL, NULL);
}

const char *
tagd_entry_get_prompt (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->prompt;
}

void
tagd_entry_set_prompt (TagdEntry *self, const char *prompt)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (g_strcmp0 (self->prompt, prompt) == 0)
    return;
  g_free (self->prompt);
  self->prompt = g_strdup (prompt);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->text_box), prompt);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, prompt ? prompt : "", -1);
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_PROMPT]);
}

/**
 * tagd_entry_get_separators:
 * @self: the entry
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the separators, or %NULL for tagd's default
 */
const char * const *
tagd_entry_get_separators (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->separators;
}

/* Replaces a string-list option; TRUE if it changed. */
static gboolean
replace_strv (char ***slot, const char * const *value)
{
  if (*slot == NULL && value == NULL)
    return FALSE;
  if (*slot != NULL && value != NULL && _tagd_strv_equal (*slot, (char **) value))
    return FALSE;
  g_strfreev (*slot);
  *slot = g_strdupv ((char **) value);
  return TRUE;
}

/**
 * tagd_entry_set_separators:
 * @self: the entry
 * @separators: (array zero-terminated=1) (nullable): one-character strings, or %NULL for `,` and newline
 */
void
tagd_entry_set_separators (TagdEntry *self, const char * const *separators)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (!replace_strv (&self->separators, separators))
    return;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SEPARATORS]);
}

int
tagd_entry_get_max_tags (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->max_tags;
}

void
tagd_entry_set_max_tags (TagdEntry *self, int max_tags)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->max_tags == max_tags)
    return;
  self->max_tags = max_tags;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_MAX_TAGS]);
}

int
tagd_entry_get_max_tag_length (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->max_tag_length;
}

void
tagd_entry_set_max_tag_length (TagdEntry *self, int max_tag_length)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (max_tag_length == 0)
    max_tag_length = -1;
  if (self->max_tag_length == max_tag_length)
    return;
  self->max_tag_length = max_tag_length;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_MAX_TAG_LENGTH]);
}

gboolean
tagd_entry_get_case_sensitive (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), FALSE);
  return self->case_sensitive;
}

void
tagd_entry_set_case_sensitive (TagdEntry *self, gboolean case_sensitive)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  case_sensitive = !!case_sensitive;
  if (self->case_sensitive == case_sensitive)
    return;
  self->case_sensitive = case_sensitive;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_CASE_SENSITIVE]);
}

TagdTransform
tagd_entry_get_transform (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), TAGD_TRANSFORM_NONE);
  return self->transform;
}

void
tagd_entry_set_transform (TagdEntry *self, TagdTransform transform)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->transform == transform)
    return;
  self->transform = transform;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_TRANSFORM]);
}

/**
 * tagd_entry_get_pattern:
 * @self: the entry
 *
 * Returns: (nullable): the pattern every tag must match
 */
const char *
tagd_entry_get_pattern (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->pattern;
}

/**
 * tagd_entry_set_pattern:
 * @self: the entry
 * @pattern: (nullable): a regular expression, or %NULL
 */
void
tagd_entry_set_pattern (TagdEntry *self, const char *pattern)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (g_strcmp0 (self->pattern, pattern) == 0)
    return;
  g_free (self->pattern);
  self->pattern = g_strdup (pattern);
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_PATTERN]);
}

/**
 * tagd_entry_get_allow:
 * @self: the entry
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the only tags accepted, or %NULL
 */
const char * const *
tagd_entry_get_allow (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->allow;
}

/**
 * tagd_entry_set_allow:
 * @self: the entry
 * @allow: (array zero-terminated=1) (nullable): the only tags accepted, or %NULL for any
 */
void
tagd_entry_set_allow (TagdEntry *self, const char * const *allow)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (!replace_strv (&self->allow, allow))
    return;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_ALLOW]);
}

/**
 * tagd_entry_get_deny:
 * @self: the entry
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the tags refused
 */
const char * const *
tagd_entry_get_deny (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->deny;
}

/**
 * tagd_entry_set_deny:
 * @self: the entry
 * @deny: (array zero-terminated=1) (nullable): tags to refuse
 */
void
tagd_entry_set_deny (TagdEntry *self, const char * const *deny)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (!replace_strv (&self->deny, deny))
    return;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_DENY]);
}

/**
 * tagd_entry_get_suggestions:
 * @self: the entry
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the suggestion vocabulary
 */
const char * const *
tagd_entry_get_suggestions (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->suggestions;
}

/**
 * tagd_entry_set_suggestions:
 * @self: the entry
 * @suggestions: (array zero-terminated=1) (nullable): the vocabulary, or %NULL for none
 *
 * Sets what the suggestion popover offers (`field/setSuggestions`; the session stays open).
 */
void
tagd_entry_set_suggestions (TagdEntry *self, const char * const *suggestions)
{
  const char *empty[] = { NULL };
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (!replace_strv (&self->suggestions, suggestions))
    return;
  if (_tagd_session_is_live (self->session))
    _tagd_session_call (self->session, "field/setSuggestions",
                        g_variant_new_parsed ("{'suggestions': <%v>}",
                                              g_variant_new_strv (suggestions ? suggestions : empty, -1)),
                        NULL, NULL, NULL);
  _tagd_entry_schedule_suggest (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SUGGESTIONS]);
}

TagdBackspaceMode
tagd_entry_get_backspace_mode (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), TAGD_BACKSPACE_MODE_REMOVE);
  return self->backspace_mode;
}

void
tagd_entry_set_backspace_mode (TagdEntry *self, TagdBackspaceMode mode)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->backspace_mode == mode)
    return;
  self->backspace_mode = mode;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_BACKSPACE_MODE]);
}

gboolean
tagd_entry_get_commit_on_blur (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), FALSE);
  return self->commit_on_blur;
}

void
tagd_entry_set_commit_on_blur (TagdEntry *self, gboolean commit_on_blur)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  commit_on_blur = !!commit_on_blur;
  if (self->commit_on_blur == commit_on_blur)
    return;
  self->commit_on_blur = commit_on_blur;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_COMMIT_ON_BLUR]);
}

int
tagd_entry_get_history (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->history;
}

void
tagd_entry_set_history (TagdEntry *self, int history)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->history == history)
    return;
  self->history = history;
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_HISTORY]);
}


/**
 * tagd_entry_get_vault:
 * @self: the entry
 *
 * Returns: (nullable) (type filename): the folder of notes whose tags are suggested
 */
const char *
tagd_entry_get_vault (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->vault;
}

/**
 * tagd_entry_set_vault:
 * @self: the entry
 * @vault: (nullable) (type filename): a folder of Markdown and Org notes, or %NULL
 *
 * Suggests the folder's tags too (tagd reads the folder and keeps up with its changes).
 */
void
tagd_entry_set_vault (TagdEntry *self, const char *vault)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (g_strcmp0 (self->vault, vault) == 0)
    return;
  if (self->vault != NULL)
    _tagd_connection_remove_vault (tagd_connection_get_default (), self->vault);
  g_free (self->vault);
  self->vault = vault != NULL && vault[0] != '\0' ? g_canonicalize_filename (vault, NULL) : NULL;
  if (self->vault != NULL)
    _tagd_connection_add_vault (tagd_connection_get_default (), self->vault);
  send_options (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_VAULT]);
}
