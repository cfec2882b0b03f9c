/* tagd-entry.c: a tag entry whose rules and layout come from tagd.
 *
 * The entry owns its text (a GtkEntry without a frame, whose GtkText is the keyboard focus) and
 * reports every change of it to tagd with field/didChange, as an editor reports its buffer
 * (Protocol/sync.md). tagd answers with field/didUpdate: the tags, the selected chip, the
 * announcement, and edits (deletions of committed text, insertions of an edited or undone
 * draft) stamped with the buffer version they were computed for. The entry applies them only
 * if the buffer is still at that version, so a key typed while a reply is in flight is never
 * lost and never becomes a tag twice.
 *
 * Everything the user does besides typing (Return, Backspace on an empty text, a chip's ×,
 * Delete, undo, moving and editing chips) is a request. A request the running tagd cannot take
 * (it died, or is starting again) is held with the text as it was when the key was pressed, and
 * sent to the new tagd in the same order, between the text changes that surrounded it; so a
 * Return pressed during a restart commits what it committed for a slow typist.
 *
 * Layout: each chip is measured with gtk_widget_measure(), the sizes go to field/layout, and
 * the chips and the text are placed at the frames that come back (see README).
 *
 * This file: the type, its properties and signals, construction, and the API on tags. The
 * other parts are listed in tagd-entry-private.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tagd-entry-private.h"
#include "tagd-enums.h"
#include "tagd-style.h"


GParamSpec *_tagd_entry_properties[N_PROPS];
guint _tagd_entry_signals[N_SIGNALS];

static void tagd_entry_editable_init (GtkEditableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TagdEntry, tagd_entry, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_EDITABLE, tagd_entry_editable_init))

/* ---- GtkEditable: the entry's text is the draft */

static GtkEditable *
tagd_entry_get_delegate (GtkEditable *editable)
{
  return GTK_EDITABLE (TAGD_ENTRY (editable)->text);
}

static void
tagd_entry_editable_init (GtkEditableInterface *iface)
{
  iface->get_delegate = tagd_entry_get_delegate;
}

/* ---- GObject */

static void
tagd_entry_constructed (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  G_OBJECT_CLASS (tagd_entry_parent_class)->constructed (object);
  _tagd_session_start (self->session);
}

static void
tagd_entry_dispose (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  g_clear_handle_id (&self->suggest_source, g_source_remove);
  g_clear_handle_id (&self->clear_description, g_source_remove);
  g_clear_weak_pointer (&self->described);
  _tagd_session_stop (self->session);
  g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->vault != NULL)
    _tagd_connection_remove_vault (tagd_connection_get_default (), self->vault);
  g_clear_pointer (&self->vault, g_free);
  if (self->buffer != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->buffer, self);
      g_clear_object (&self->buffer);
    }
  if (self->chips != NULL)
    {
      for (guint i = 0; i < self->chips->len; i++)
        gtk_widget_unparent (self->chips->pdata[i]);
      g_clear_pointer (&self->chips, g_ptr_array_unref);
    }
  if (self->text != NULL)
    gtk_editable_finish_delegate (GTK_EDITABLE (self));
  self->text = NULL;
  g_clear_pointer (&self->text_box, gtk_widget_unparent);
  g_clear_pointer (&self->message, gtk_widget_unparent);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  G_OBJECT_CLASS (tagd_entry_parent_class)->dispose (object);
}

static void
tagd_entry_finalize (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);
  g_strfreev (self->tags);
  g_strfreev (self->separators);
  g_strfreev (self->allow);
  g_strfreev (self->deny);
  g_strfreev (self->suggestions);
  g_free (self->pattern);
  g_free (self->prompt);
  g_free (self->vault);
  g_free (self->announcement);
  g_string_free (self->mirror, TRUE);
  g_free (self->open_text);
  g_free (self->flag_sentence);
  g_object_unref (self->session);
  G_OBJECT_CLASS (tagd_entry_parent_class)->finalize (object);
}

static void
tagd_entry_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TagdEntry *self = TAGD_ENTRY (object);

  if (gtk_editable_delegate_get_property (object, prop_id, value, pspec))
    return;
  switch (prop_id)
    {
    case PROP_TAGS: g_value_set_boxed (value, self->tags); break;
    case PROP_PROMPT: g_value_set_string (value, self->prompt); break;
    case PROP_SEPARATORS: g_value_set_boxed (value, self->separators); break;
    case PROP_MAX_TAGS: g_value_set_int (value, self->max_tags); break;
    case PROP_MAX_TAG_LENGTH: g_value_set_int (value, self->max_tag_length); break;
    case PROP_CASE_SENSITIVE: g_value_set_boolean (value, self->case_sensitive); break;
    case PROP_TRANSFORM: g_value_set_enum (value, self->transform); break;
    case PROP_PATTERN: g_value_set_string (value, self->pattern); break;
    case PROP_ALLOW: g_value_set_boxed (value, self->allow); break;
    case PROP_DENY: g_value_set_boxed (value, self->deny); break;
    case PROP_SUGGESTIONS: g_value_set_boxed (value, self->suggestions); break;
    case PROP_BACKSPACE_MODE: g_value_set_enum (value, self->backspace_mode); break;
    case PROP_COMMIT_ON_BLUR: g_value_set_boolean (value, self->commit_on_blur); break;
    case PROP_HISTORY: g_value_set_int (value, self->history); break;
    case PROP_VAULT: g_value_set_string (value, self->vault); break;
    case PROP_SELECTED: g_value_set_int (value, self->selected); break;
    case PROP_ANNOUNCEMENT: g_value_set_string (value, self->announcement); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_entry_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TagdEntry *self = TAGD_ENTRY (object);

  if (gtk_editable_delegate_set_property (object, prop_id, value, pspec))
    return;
  switch (prop_id)
    {
    case PROP_TAGS: tagd_entry_set_tags (self, g_value_get_boxed (value)); break;
    case PROP_PROMPT: tagd_entry_set_prompt (self, g_value_get_string (value)); break;
    case PROP_SEPARATORS: tagd_entry_set_separators (self, g_value_get_boxed (value)); break;
    case PROP_MAX_TAGS: tagd_entry_set_max_tags (self, g_value_get_int (value)); break;
    case PROP_MAX_TAG_LENGTH: tagd_entry_set_max_tag_length (self, g_value_get_int (value)); break;
    case PROP_CASE_SENSITIVE: tagd_entry_set_case_sensitive (self, g_value_get_boolean (value)); break;
    case PROP_TRANSFORM: tagd_entry_set_transform (self, g_value_get_enum (value)); break;
    case PROP_PATTERN: tagd_entry_set_pattern (self, g_value_get_string (value)); break;
    case PROP_ALLOW: tagd_entry_set_allow (self, g_value_get_boxed (value)); break;
    case PROP_DENY: tagd_entry_set_deny (self, g_value_get_boxed (value)); break;
    case PROP_SUGGESTIONS: tagd_entry_set_suggestions (self, g_value_get_boxed (value)); break;
    case PROP_BACKSPACE_MODE: tagd_entry_set_backspace_mode (self, g_value_get_enum (value)); break;
    case PROP_COMMIT_ON_BLUR: tagd_entry_set_commit_on_blur (self, g_value_get_boolean (value)); break;
    case PROP_HISTORY: tagd_entry_set_history (self, g_value_get_int (value)); break;
    case PROP_VAULT: tagd_entry_set_vault (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

#define RW (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

static void
tagd_entry_class_init (TagdEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tagd_entry_constructed;
  object_class->dispose = tagd_entry_dispose;
  object_class->finalize = tagd_entry_finalize;
  object_class->get_property = tagd_entry_get_property;
  object_class->set_property = tagd_entry_set_property;
  widget_class->measure = _tagd_entry_measure;
  widget_class->size_allocate = _tagd_entry_size_allocate;
  widget_class->get_request_mode = _tagd_entry_get_request_mode;
  widget_class->grab_focus = _tagd_entry_grab_focus;
  widget_class->focus = _tagd_entry_focus;

  /**
   * TagdEntry:tags: (type GStrv)
   *
   * The tags, in order, as tagd keeps them. Setting it replaces every tag (tagd applies its
   * rules: duplicates and over-long tags are dropped).
   */
  _tagd_entry_properties[PROP_TAGS] = g_param_spec_boxed ("tags", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:prompt:
   *
   * The placeholder shown while the text is empty, also the text's accessible name.
   */
  _tagd_entry_properties[PROP_PROMPT] = g_param_spec_string ("prompt", NULL, NULL, NULL, RW);
  /**
   * TagdEntry:separators: (type GStrv)
   *
   * One-character strings that commit the text (`"\n"` means newline). %NULL: `,` and newline.
   */
  _tagd_entry_properties[PROP_SEPARATORS] = g_param_spec_boxed ("separators", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:max-tags:
   *
   * The most tags the entry takes, or -1 for tagd's own limit.
   */
  _tagd_entry_properties[PROP_MAX_TAGS] = g_param_spec_int ("max-tags", NULL, NULL, -1, G_MAXINT, -1, RW);
  /**
   * TagdEntry:max-tag-length:
   *
   * The longest tag in characters, or -1 for tagd's own limit.
   */
  _tagd_entry_properties[PROP_MAX_TAG_LENGTH] = g_param_spec_int ("max-tag-length", NULL, NULL, -1, G_MAXINT, -1, RW);
  /**
   * TagdEntry:case-sensitive:
   *
   * Whether tags differing only in case are different tags.
   */
  _tagd_entry_properties[PROP_CASE_SENSITIVE] = g_param_spec_boolean ("case-sensitive", NULL, NULL, FALSE, RW);
  /**
   * TagdEntry:transform:
   *
   * How new tags are rewritten.
   */
  _tagd_entry_properties[PROP_TRANSFORM] =
    g_param_spec_enum ("transform", NULL, NULL, TAGD_TYPE_TRANSFORM, TAGD_TRANSFORM_NONE, RW);
  /**
   * TagdEntry:pattern:
   *
   * A regular expression (tagd's syntax, see Protocol/README.md) every whole tag must match,
   * or %NULL. A pattern tagd cannot compile is reported as a warning and refuses nothing.
   */
  _tagd_entry_properties[PROP_PATTERN] = g_param_spec_string ("pattern", NULL, NULL, NULL, RW);
  /**
   * TagdEntry:allow: (type GStrv)
   *
   * When set, the only tags accepted (compared under the entry's equality). %NULL: any.
   */
  _tagd_entry_properties[PROP_ALLOW] = g_param_spec_boxed ("allow", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:deny: (type GStrv)
   *
   * Tags refused (compared under the entry's equality).
   */
  _tagd_entry_properties[PROP_DENY] = g_param_spec_boxed ("deny", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:suggestions: (type GStrv)
   *
   * The vocabulary the suggestion popover draws from as the user types (`field/suggest`).
   * %NULL: no suggestions.
   */
  _tagd_entry_properties[PROP_SUGGESTIONS] = g_param_spec_boxed ("suggestions", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:backspace-mode:
   *
   * What Backspace does on an empty text.
   */
  _tagd_entry_properties[PROP_BACKSPACE_MODE] =
    g_param_spec_enum ("backspace-mode", NULL, NULL, TAGD_TYPE_BACKSPACE_MODE, TAGD_BACKSPACE_MODE_REMOVE, RW);
  /**
   * TagdEntry:commit-on-blur:
   *
   * Whether the text becomes a tag when the focus leaves the entry.
   */
  _tagd_entry_properties[PROP_COMMIT_ON_BLUR] = g_param_spec_boolean ("commit-on-blur", NULL, NULL, FALSE, RW);
  /**
   * TagdEntry:history:
   *
   * How many undo steps tagd keeps, or -1 for its default (100).
   */
  _tagd_entry_properties[PROP_HISTORY] = g_param_spec_int ("history", NULL, NULL, -1, 100000, -1, RW);
  /**
   * TagdEntry:vault:
   *
   * A folder of Markdown and Org notes (SPEC §6d): the suggestions then include its tags, those
   * carried by the most notes first (`suggestFromVault`), after [property@Tagd.Entry:suggestions].
   * %NULL for none.
   */
  _tagd_entry_properties[PROP_VAULT] = g_param_spec_string ("vault", NULL, NULL, NULL, RW);
  /**
   * TagdEntry:selected:
   *
   * The index of the selected chip, or -1 (tagd's `selected`).
   */
  _tagd_entry_properties[PROP_SELECTED] =
    g_param_spec_int ("selected", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:announcement:
   *
   * The last sentence tagd gave for assistive technology ("Added red."), in the language of
   * the application. A screen reader hears it on the focused part of the entry.
   */
  _tagd_entry_properties[PROP_ANNOUNCEMENT] =
    g_param_spec_string ("announcement", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, _tagd_entry_properties);
  gtk_editable_install_properties (object_class, N_PROPS);

  /**
   * TagdEntry::tags-changed:
   * @self: the entry
   *
   * Emitted when the tags change, whoever changed them.
   */
  _tagd_entry_signals[SIGNAL_TAGS_CHANGED] =
    g_signal_new ("tags-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * TagdEntry::tag-dropped:
   * @self: the entry
   * @text: the candidate that did not become a tag
   * @reason: why tagd refused it
   * @index: for %TAGD_DROP_REASON_DUPLICATE, the index of the equal tag (its chip flashes), else -1
   *
   * Emitted for each candidate tagd refused, after [property@Tagd.Entry:announcement] holds
   * the sentence that says so.
   */
  _tagd_entry_signals[SIGNAL_TAG_DROPPED] =
    g_signal_new ("tag-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, TAGD_TYPE_DROP_REASON, G_TYPE_INT);
  /**
   * TagdEntry::activate:
   * @self: the entry
   *
   * Emitted when Return is pressed on an empty text (nothing to commit), before the window's
   * default widget is activated, as for a #GtkEntry.
   */
  _tagd_entry_signals[SIGNAL_ACTIVATE] =
    g_signal_new ("activate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "entry");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_entry_init (TagdEntry *self)
{
  _tagd_style_ensure ();
  self->session = _tagd_entry_session_new (self);
  self->chips = g_ptr_array_new_with_free_func (g_object_unref);
  self->tags = g_new0 (char *, 1);
  self->mirror = g_string_new ("");
  self->items = g_ptr_array_new_with_free_func (g_free);
  self->max_tags = -1;
  self->max_tag_length = -1;
  self->history = -1;
  self->selected = -1;
  self->layout_width = -1;
  self->layout_height = -1;

  gtk_widget_add_css_class (GTK_WIDGET (self), "tagd-entry");
  /* The text is a frameless GtkEntry: GTK 4.8 reports the focus of its GtkText as the entry's
   * own AT-SPI focus, so a screen reader follows the typing there and speaks the sentences set
   * on it; its placeholder is drawn dimmed by the theme. */
  self->text_box = gtk_entry_new ();
  gtk_entry_set_has_frame (GTK_ENTRY (self->text_box), FALSE);
  gtk_widget_add_css_class (self->text_box, "tagd-text");
  gtk_widget_set_parent (self->text_box, GTK_WIDGET (self));
  self->text = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (self->text_box)));
  gtk_editable_set_enable_undo (GTK_EDITABLE (self->text_box), FALSE);
  self->buffer = g_object_ref (gtk_entry_get_buffer (GTK_ENTRY (self->text_box)));
  g_signal_connect (self->buffer, "inserted-text", G_CALLBACK (_tagd_entry_on_inserted_text), self);
  g_signal_connect (self->buffer, "deleted-text", G_CALLBACK (_tagd_entry_on_deleted_text), self);
  gtk_editable_init_delegate (GTK_EDITABLE (self));

  self->message = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->message), 0);
  gtk_label_set_wrap (GTK_LABEL (self->message), TRUE);
  gtk_widget_add_css_class (self->message, "tagd-message");
  gtk_widget_add_css_class (self->message, "error");
  gtk_widget_set_visible (self->message, FALSE);
  gtk_widget_set_parent (self->message, GTK_WIDGET (self));

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_SINGLE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (self->list), TRUE);
  gtk_widget_set_focusable (self->list, FALSE);
  gtk_widget_add_css_class (self->list, "tagd-suggestions");
  g_signal_connect (self->list, "row-activated", G_CALLBACK (_tagd_entry_on_row_activated), self);
  self->popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->popover), self->list);
  /* The keyboard stays in the text: Down/Up move the highlight, Tab or Return take it. */
  gtk_popover_set_autohide (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->popover), GTK_POS_BOTTOM);
  gtk_widget_set_can_focus (self->popover, FALSE);
  gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->popover, GTK_WIDGET (self));

  _tagd_entry_keys_init (self);

  tagd_entry_set_prompt (self, _("Add a tag"));
}

/* ---- public API */

/**
 * tagd_entry_new:
 *
 * Returns: a new tag entry, with no tags
 */
GtkWidget *
tagd_entry_new (void)
{
  return g_object_new (TAGD_TYPE_ENTRY, NULL);
}

/**
 * tagd_entry_get_tags:
 * @self: the entry
 *
 * Returns: (transfer none) (array zero-terminated=1): the tags
 */
const char * const *
tagd_entry_get_tags (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->tags;
}

/**
 * tagd_entry_set_tags:
 * @self: the entry
 * @tags: (array zero-terminated=1) (nullable): the new tags
 *
 * Replaces every tag. tagd applies its rules, so [property@Tagd.Entry:tags] may end up shorter.
 */
void
tagd_entry_set_tags (TagdEntry *self, const char * const *tags)
{
  const char *empty[] = { NULL };
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (tags == NULL)
    tags = empty;
  if (_tagd_strv_equal (self->tags, (char **) tags))
    return;
  _tagd_entry_set_tags_internal (self, g_strdupv ((char **) tags));
  _tagd_session_reopen (self->session, TRUE);
}

/**
 * tagd_entry_add_tags:
 * @self: the entry
 * @tags: (array zero-terminated=1): candidates, each one tag (not split at separators)
 *
 * Adds tags from outside the text, such as a clicked suggestion, under the entry's rules.
 */
void
tagd_entry_add_tags (TagdEntry *self, const char * const *tags)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  g_return_if_fail (tags != NULL);
  _tagd_entry_request (self, "field/addTags", g_variant_new_parsed ("{'tags': <%v>}", g_variant_new_strv (tags, -1)),
           0, NULL);
}

/**
 * tagd_entry_remove_tag:
 * @self: the entry
 * @tag: the tag to remove (compared under the entry's rules)
 */
void
tagd_entry_remove_tag (TagdEntry *self, const char *tag)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  g_return_if_fail (tag != NULL);
  for (guint i = 0; i < self->chips->len; i++)
    {
      TagdChip *chip = self->chips->pdata[i];
      if (g_str_equal (chip->tag, tag))
        {
          if (!chip->removing)
            _tagd_entry_remove_chip (self, chip);
          return;
        }
    }
  _tagd_entry_request (self, "field/removeTag", g_variant_new_parsed ("{'tag': <%s>}", tag), OP_REMOVE, NULL);
}

/**
 * tagd_entry_undo:
 * @self: the entry
 *
 * Undoes the last change of the tags or the text (`field/undo`), as Ctrl+Z does.
 */
void
tagd_entry_undo (TagdEntry *self)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  _tagd_entry_request (self, "field/undo", NULL, 0, NULL);
}

/**
 * tagd_entry_redo:
 * @self: the entry
 *
 * Redoes what was undone (`field/redo`), as Ctrl+Shift+Z does.
 */
void
tagd_entry_redo (TagdEntry *self)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  _tagd_entry_request (self, "field/redo", NULL, 0, NULL);
}

/**
 * tagd_entry_get_draft:
 * @self: the entry
 *
 * Returns: the text in the box (also [property@Gtk.Editable:text])
 */
const char *
tagd_entry_get_draft (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return gtk_entry_buffer_get_text (self->buffer);
}

/**
 * tagd_entry_get_selected:
 * @self: the entry
 *
 * Returns: the index of the selected chip, or -1
 */
int
tagd_entry_get_selected (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->selected;
}

/**
 * tagd_entry_get_announcement:
 * @self: the entry
 *
 * Returns: (nullable): the last sentence tagd gave for assistive technology
 */
const char *
tagd_entry_get_announcement (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->announcement;
}
