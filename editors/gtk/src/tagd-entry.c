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
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tagd-entry-private.h"
#include "tagd-enums.h"
#include "tagd-style.h"


enum {
  PROP_0,
  PROP_TAGS,
  PROP_PROMPT,
  PROP_SEPARATORS,
  PROP_MAX_TAGS,
  PROP_MAX_TAG_LENGTH,
  PROP_CASE_SENSITIVE,
  PROP_TRANSFORM,
  PROP_PATTERN,
  PROP_ALLOW,
  PROP_DENY,
  PROP_SUGGESTIONS,
  PROP_BACKSPACE_MODE,
  PROP_COMMIT_ON_BLUR,
  PROP_HISTORY,
  PROP_SELECTED,
  PROP_ANNOUNCEMENT,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum { SIGNAL_TAGS_CHANGED, SIGNAL_TAG_DROPPED, SIGNAL_ACTIVATE, N_SIGNALS };
static guint signals[N_SIGNALS];

static void tagd_entry_editable_init (GtkEditableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TagdEntry, tagd_entry, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_EDITABLE, tagd_entry_editable_init))

static void select_chip (TagdEntry *self, int index, gboolean tell_tagd);
static void chip_remove_clicked (GtkButton *button, gpointer data);
static int nearest_chip (TagdEntry *self, int from, int step);
static void remove_chip (TagdEntry *self, TagdChip *chip);
static void chip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data);

/* ---- chips */

static void
connect_chip (TagdEntry *self, TagdChip *chip)
{
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (chip->button, "clicked", G_CALLBACK (chip_remove_clicked), self);
  g_signal_connect (click, "pressed", G_CALLBACK (chip_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (chip), GTK_EVENT_CONTROLLER (click));
}

static gboolean
focus_is_in_chips (TagdEntry *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  for (guint i = 0; focus != NULL && i < self->chips->len; i++)
    if (gtk_widget_is_ancestor (focus, self->chips->pdata[i]))
      return TRUE;
  return FALSE;
}

/* Back to the text, caret at @position (-1: the end), nothing selected: a key typed next adds
 * to the draft instead of replacing it (a plain grab_focus would select the whole text). */
void
_tagd_entry_focus_text (TagdEntry *self, int position)
{
  gtk_text_grab_focus_without_selecting (GTK_TEXT (self->text));
  gtk_editable_set_position (GTK_EDITABLE (self->text), position);
}

static void
rebuild_chips (TagdEntry *self)
{
  GPtrArray *old = self->chips;
  guint n = self->tags ? g_strv_length (self->tags) : 0;
  gboolean chip_had_focus = focus_is_in_chips (self);
  TagdChip *was_selected = self->selected >= 0 && self->selected < (int) old->len ? old->pdata[self->selected] : NULL;
  int old_selected = self->selected;
  g_autoptr (GHashTable) by_tag = g_hash_table_new (g_str_hash, g_str_equal);

  self->rebuilds++;
  self->chips = g_ptr_array_new_with_free_func (g_object_unref);
  /* Reuse a chip for a tag that is still there (it keeps its frame until the new layout).
   * Tags are unique, so a table of the old chips by tag finds them. */
  for (guint j = 0; j < old->len; j++)
    g_hash_table_insert (by_tag, TAGD_CHIP (old->pdata[j])->tag, GUINT_TO_POINTER (j + 1));
  for (guint i = 0; i < n; i++)
    {
      TagdChip *chip = NULL;
      guint j = GPOINTER_TO_UINT (g_hash_table_lookup (by_tag, self->tags[i]));
      if (j > 0 && old->pdata[j - 1] != NULL)
        {
          chip = old->pdata[j - 1];
          old->pdata[j - 1] = NULL;
        }
      if (chip == NULL)
        {
          chip = _tagd_chip_new (self->tags[i]);
          g_object_ref_sink (chip);
          gtk_widget_set_child_visible (GTK_WIDGET (chip), FALSE);
          connect_chip (self, chip);
        }
      gtk_widget_insert_before (GTK_WIDGET (chip), GTK_WIDGET (self), self->text_box);
      g_ptr_array_add (self->chips, chip);
    }
  for (guint j = 0; j < old->len; j++)
    {
      TagdChip *c = old->pdata[j];
      if (c == NULL)
        continue;
      gtk_widget_unparent (GTK_WIDGET (c));
      g_object_unref (c);
    }
  g_ptr_array_set_free_func (old, NULL);
  g_ptr_array_free (old, TRUE);

  self->selected = -1;
  if (old_selected >= 0)
    {
      guint index;
      /* The selected chip keeps the selection if it is still there; else the nearest one. */
      if (was_selected != NULL && g_ptr_array_find (self->chips, was_selected, &index))
        select_chip (self, (int) index, FALSE);
      else
        select_chip (self, nearest_chip (self, MIN (old_selected, (int) self->chips->len - 1), -1), FALSE);
    }
  else if (chip_had_focus)
    _tagd_entry_focus_text (self, -1);

  _tagd_entry_request_layout (self);
}

static void
set_tags_internal (TagdEntry *self, char **tags /* transfer full */)
{
  if (_tagd_entry_strv_equal (self->tags, tags))
    {
      g_strfreev (tags);
      return;
    }
  g_strfreev (self->tags);
  self->tags = tags;
  rebuild_chips (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TAGS]);
  g_signal_emit (self, signals[SIGNAL_TAGS_CHANGED], 0);
}

/* tagd's index of the chip at @index: chips whose removal is on its way are gone there. */
static int
tagd_index (TagdEntry *self, int index)
{
  int n = 0;
  for (int i = 0; i < index && i < (int) self->chips->len; i++)
    if (!TAGD_CHIP (self->chips->pdata[i])->removing)
      n++;
  return n;
}

/* ---- announcements */

static gboolean
clear_description_cb (gpointer data)
{
  TagdEntry *self = data;
  self->clear_description = 0;
  if (self->described != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->described),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
  g_clear_weak_pointer (&self->described);
  return G_SOURCE_REMOVE;
}

/* What a screen reader is reading: the Remove button of the selected chip, else the text. */
static GtkWidget *
announce_target (TagdEntry *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  for (guint i = 0; focus != NULL && i < self->chips->len; i++)
    if (focus == TAGD_CHIP (self->chips->pdata[i])->button)
      return focus;
  return self->text_box;
}

static void
set_announcement (TagdEntry *self, const char *sentence)
{
  GtkWidget *target;

  if (sentence == NULL || sentence[0] == '\0')
    return;
  g_free (self->announcement);
  self->announcement = g_strdup (sentence);
  /* GTK 4.8 has no gtk_accessible_announce() (4.14): Orca speaks a change of the accessible
   * description of its locus of focus. The description is cleared on the next idle, so the
   * same sentence twice is spoken twice and is not read again when focus comes back. */
  target = announce_target (self);
  if (self->described != NULL && self->described != target)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->described),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
  g_set_weak_pointer (&self->described, target);
  gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence, -1);
  g_clear_handle_id (&self->clear_description, g_source_remove);
  self->clear_description = g_idle_add (clear_description_cb, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANNOUNCEMENT]);
}

/* A candidate was refused: the text turns to its error style and the sentence shows below the
 * entry (and as the text's tooltip) until the text changes. */
static void
show_refusal (TagdEntry *self, const char *sentence)
{
  gtk_widget_add_css_class (self->text_box, "error");
  gtk_label_set_text (GTK_LABEL (self->message), sentence);
  gtk_widget_set_tooltip_text (self->text_box, sentence);
  if (!gtk_widget_get_visible (self->message))
    {
      gtk_widget_set_visible (self->message, TRUE);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

void
_tagd_entry_clear_refusal (TagdEntry *self)
{
  if (!gtk_widget_get_visible (self->message))
    return;
  gtk_widget_remove_css_class (self->text_box, "error");
  gtk_widget_set_tooltip_text (self->text_box, NULL);
  gtk_widget_set_visible (self->message, FALSE);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static TagdDropReason
drop_reason (const char *reason)
{
  static const struct { const char *name; TagdDropReason value; } reasons[] = {
    { "empty", TAGD_DROP_REASON_EMPTY }, { "duplicate", TAGD_DROP_REASON_DUPLICATE },
    { "tooLong", TAGD_DROP_REASON_TOO_LONG }, { "tooMany", TAGD_DROP_REASON_TOO_MANY },
    { "pattern", TAGD_DROP_REASON_PATTERN }, { "notAllowed", TAGD_DROP_REASON_NOT_ALLOWED },
    { "denied", TAGD_DROP_REASON_DENIED },
  };
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (g_str_equal (reason, reasons[i].name))
      return reasons[i].value;
  return TAGD_DROP_REASON_OTHER;
}

/* The outcome's sentence first (so tag-dropped handlers read the new announcement), then the
 * flashes and the signals. */
void
_tagd_entry_apply_outcome (TagdEntry *self, GVariant *state)
{
  g_autoptr (GVariant) outcome = _tagd_variant_lookup (state, "outcome");
  g_autoptr (GVariant) dropped = _tagd_variant_lookup (outcome, "dropped");
  const char *sentence = NULL;
  gboolean refused = FALSE;
  GVariantIter iter;
  GVariant *item;

  g_variant_lookup (state, "announcement", "&s", &sentence);
  if (sentence != NULL)
    set_announcement (self, sentence);
  if (dropped == NULL)
    return;
  g_variant_iter_init (&iter, dropped);
  while ((item = g_variant_iter_next_value (&iter)))
    {
      g_autoptr (GVariant) d = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
      const char *text = "", *reason = "";
      int index = (int) _tagd_variant_number (d, "duplicateOf", -1);
      TagdDropReason why;

      g_variant_lookup (d, "text", "&s", &text);
      g_variant_lookup (d, "reason", "&s", &reason);
      why = drop_reason (reason);
      if (why == TAGD_DROP_REASON_DUPLICATE && index >= 0 && (guint) index < self->chips->len)
        _tagd_chip_flash (self->chips->pdata[index]);
      else if (why != TAGD_DROP_REASON_EMPTY && why != TAGD_DROP_REASON_DUPLICATE)
        refused = TRUE;
      g_signal_emit (self, signals[SIGNAL_TAG_DROPPED], 0, text, why, index);
      g_variant_unref (item);
    }
  if (refused && sentence != NULL)
    show_refusal (self, sentence);
}

/* tagd's `selected`, shown unless a field/select of the entry's own is still on its way. */
static void
adopt_selection (TagdEntry *self, GVariant *state)
{
  int selected = (int) _tagd_variant_number (state, "selected", -1);

  if (self->select_pending > 0 || selected == self->selected)
    return;
  if (selected >= (int) self->chips->len)
    selected = -1;
  if (selected < 0 && !focus_is_in_chips (self))
    {
      /* Nothing to move focus from. */
      for (guint i = 0; i < self->chips->len; i++)
        _tagd_chip_set_selected (self->chips->pdata[i], FALSE);
      self->selected = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
      return;
    }
  select_chip (self, selected, FALSE);
}

/* Takes a FieldState or update if it is newer than what the entry shows. */
void
_tagd_entry_apply_state (TagdEntry *self, GVariant *state, const char *version_key, gboolean announce)
{
  gint64 version = (gint64) _tagd_variant_number (state, version_key, 0);
  g_autoptr (GVariant) tags = _tagd_variant_lookup (state, "tags");

  if (version < self->state_version)
    return;
  if (version > self->state_version)
    {
      self->state_version = version;
      if (tags != NULL)
        set_tags_internal (self, _tagd_variant_strv (tags));
      if (announce)
        _tagd_entry_apply_outcome (self, state);
    }
  adopt_selection (self, state);
}

/* ---- chips: selection, removal */

/* The nearest chip to @from that is not being removed, looking in direction @step first (-1
 * or +1) and then the other way; -1 if none. */
static int
nearest_chip (TagdEntry *self, int from, int step)
{
  int n = (int) self->chips->len;
  for (int i = from; i >= 0 && i < n; i += step)
    if (!TAGD_CHIP (self->chips->pdata[i])->removing)
      return i;
  for (int i = from - step; i >= 0 && i < n; i -= step)
    if (!TAGD_CHIP (self->chips->pdata[i])->removing)
      return i;
  return -1;
}

static void
remove_chip (TagdEntry *self, TagdChip *chip)
{
  /* Hidden at once, so that a second Delete, typed before tagd answers, removes the next
   * chip as it would for a slow typist, not the same tag again. */
  chip->removing = TRUE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  _tagd_entry_request (self, "field/removeTag", g_variant_new_parsed ("{'tag': <%s>}", chip->tag), OP_REMOVE, chip);
}

/* Selects the chip at @index (-1: none, back to the text) and tells tagd (field/select), whose
 * `selected` the entry then shows. The Remove button of the selected chip has the focus. */
static void
select_chip (TagdEntry *self, int index, gboolean tell_tagd)
{
  int previous = self->selected;

  if (index >= (int) self->chips->len)
    index = -1;
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_selected (self->chips->pdata[i], (int) i == index);
  self->selected = index;
  if (index >= 0)
    gtk_widget_grab_focus (TAGD_CHIP (self->chips->pdata[index])->button);
  else if (focus_is_in_chips (self) || previous >= 0)
    _tagd_entry_focus_text (self, -1);
  if (tell_tagd)
    {
      GVariant *which = index >= 0 ? g_variant_new_int64 (tagd_index (self, index))
                                   : g_variant_new ("mv", NULL);
      _tagd_entry_request (self, "field/select",
               g_variant_new_parsed ("{'index': <%v>}", which), OP_SELECT | OP_LOCAL, NULL);
    }
  if (previous != index)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

/* Tells a new session (re-opened for an option change or after a restart) which chip the user
 * has selected, so that the selection survives it. */
void
_tagd_entry_send_selection (TagdEntry *self)
{
  if (self->selected >= 0)
    _tagd_entry_request (self, "field/select",
                         g_variant_new_parsed ("{'index': <%x>}", (gint64) tagd_index (self, self->selected)),
                         OP_SELECT | OP_LOCAL, NULL);
}

static void
chip_remove_clicked (GtkButton *button, gpointer data)
{
  TagdEntry *self = TAGD_ENTRY (data);
  GtkWidget *chip = gtk_widget_get_parent (GTK_WIDGET (button));
  gboolean was_selected = self->selected >= 0 && self->chips->pdata[self->selected] == chip;

  if (!TAGD_CHIP (chip)->removing)
    remove_chip (self, TAGD_CHIP (chip));
  if (was_selected || focus_is_in_chips (self))
    select_chip (self, -1, FALSE);
}

static void
edit_chip (TagdEntry *self, int index)
{
  if (index < 0 || index >= (int) self->chips->len)
    return;
  _tagd_entry_request (self, "field/editTag", g_variant_new_parsed ("{'index': <%x>}", (gint64) tagd_index (self, index)), 0, NULL);
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_selected (self->chips->pdata[i], FALSE);
  self->selected = -1;
  _tagd_entry_focus_text (self, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

/* Alt+Left / Alt+Right: tagd moves the tag; the chip moves at once here too, so that the
 * next key acts on the order the user sees. */
static void
move_chip (TagdEntry *self, int step)
{
  int from = self->selected, to = nearest_chip (self, from + step, step);
  char *tag;
  gpointer chip;

  if (from < 0 || to < 0 || (step < 0 ? to >= from : to <= from))
    return;
  _tagd_entry_request (self, "field/moveTag",
           g_variant_new_parsed ("{'from': <%x>, 'to': <%x>}", (gint64) tagd_index (self, from),
                                 (gint64) tagd_index (self, to)), 0, NULL);
  chip = self->chips->pdata[from];
  tag = self->tags[from];
  for (int i = from; i != to; i += step)
    {
      self->chips->pdata[i] = self->chips->pdata[i + step];
      self->tags[i] = self->tags[i + step];
    }
  self->chips->pdata[to] = chip;
  self->tags[to] = tag;
  self->rebuilds++;
  gtk_widget_insert_before (chip, GTK_WIDGET (self),
                            to + 1 < (int) self->chips->len ? self->chips->pdata[to + 1] : self->text_box);
  self->selected = to;
  _tagd_entry_request_layout (self);
  gtk_widget_grab_focus (TAGD_CHIP (chip)->button);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TAGS]);
  g_signal_emit (self, signals[SIGNAL_TAGS_CHANGED], 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

/* A click on a chip (not on its ×) selects it, as Left does from the text; a double-click
 * edits it. */
static void
chip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  TagdEntry *self = TAGD_ENTRY (data);
  GtkWidget *chip = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *picked = gtk_widget_pick (chip, x, y, GTK_PICK_DEFAULT);
  guint index;

  if (picked != chip && picked != TAGD_CHIP (chip)->label)
    return;
  if (!g_ptr_array_find (self->chips, chip, &index))
    return;
  if (n_press == 2)
    edit_chip (self, (int) index);
  else if ((int) index != self->selected)
    select_chip (self, (int) index, TRUE);
}

/* ---- keys */

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                TagdEntry             *self)
{
  GdkModifierType mods = state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK | GDK_SUPER_MASK);
  gboolean on_chip = self->selected >= 0 && self->selected < (int) self->chips->len && focus_is_in_chips (self);

  /* Chips come before the text in reading order: in right-to-left layouts they are on its
   * right, so the arrow that goes "back" is Right. */
  if (gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL)
    {
      if (keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left)
        keyval = GDK_KEY_Right;
      else if (keyval == GDK_KEY_Right || keyval == GDK_KEY_KP_Right)
        keyval = GDK_KEY_Left;
    }

  /* Undo and redo are tagd's (the draft and the tags together), not GtkText's own. */
  if ((keyval == GDK_KEY_z || keyval == GDK_KEY_Z) && (mods & ~GDK_SHIFT_MASK) == GDK_CONTROL_MASK)
    {
      _tagd_entry_request (self, (mods & GDK_SHIFT_MASK) ? "field/redo" : "field/undo", NULL, 0, NULL);
      return TRUE;
    }
  if ((keyval == GDK_KEY_y || keyval == GDK_KEY_Y) && mods == GDK_CONTROL_MASK)
    {
      _tagd_entry_request (self, "field/redo", NULL, 0, NULL);
      return TRUE;
    }

  if (on_chip)
    {
      int i = self->selected;
      switch (keyval)
        {
        case GDK_KEY_Left:
        case GDK_KEY_KP_Left:
          if (mods == GDK_ALT_MASK)
            move_chip (self, -1);
          else if (mods == 0)
            {
              int prev = i > 0 ? nearest_chip (self, i - 1, -1) : -1;
              if (prev >= 0 && prev < i)
                select_chip (self, prev, TRUE);
            }
          return TRUE;
        case GDK_KEY_Right:
        case GDK_KEY_KP_Right:
          if (mods == GDK_ALT_MASK)
            move_chip (self, +1);
          else if (mods == 0)
            {
              int next = nearest_chip (self, i + 1, +1);
              if (next > i)
                select_chip (self, next, TRUE);
              else
                {
                  select_chip (self, -1, TRUE);
                  _tagd_entry_focus_text (self, 0);
                }
            }
          return TRUE;
        case GDK_KEY_Home:
        case GDK_KEY_KP_Home:
          select_chip (self, nearest_chip (self, 0, +1), TRUE);
          return TRUE;
        case GDK_KEY_End:
        case GDK_KEY_KP_End:
        case GDK_KEY_Escape:
          select_chip (self, -1, TRUE);
          return TRUE;
        case GDK_KEY_Delete:
        case GDK_KEY_KP_Delete:
        case GDK_KEY_BackSpace:
          {
            /* The selection moves to the next chip (Delete) or the previous one (Backspace),
             * else the other way, else back to the text. */
            int step = keyval == GDK_KEY_BackSpace ? -1 : +1;
            remove_chip (self, self->chips->pdata[i]);
            select_chip (self, nearest_chip (self, i + step, step), TRUE);
            return TRUE;
          }
        case GDK_KEY_Return:
        case GDK_KEY_KP_Enter:
        case GDK_KEY_ISO_Enter:
        case GDK_KEY_F2:
          edit_chip (self, i);
          return TRUE;
        case GDK_KEY_Tab:
        case GDK_KEY_ISO_Left_Tab:
        case GDK_KEY_KP_Tab:
          return FALSE;
        default:
          /* Anything typed on a chip goes into the text, at its end. */
          if ((mods & ~GDK_SHIFT_MASK) == 0 && gdk_keyval_to_unicode (keyval) != 0)
            {
              select_chip (self, -1, TRUE);
              return gtk_event_controller_key_forward (controller, self->text);
            }
          return FALSE;
        }
    }

  if (!gtk_widget_has_focus (self->text))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (mods != 0)
        return FALSE;
      if (gtk_widget_get_visible (self->popover) && _tagd_entry_highlighted_row (self) >= 0)
        _tagd_entry_take_suggestion (self, (guint) _tagd_entry_highlighted_row (self));
      else if (gtk_entry_buffer_get_length (self->buffer) > 0)
        {
          _tagd_entry_hide_suggestions (self);
          _tagd_entry_request (self, "field/submit", NULL, 0, NULL);
        }
      else
        {
          g_signal_emit (self, signals[SIGNAL_ACTIVATE], 0);
          gtk_widget_activate_default (GTK_WIDGET (self));
        }
      return TRUE;
    case GDK_KEY_Tab:
    case GDK_KEY_KP_Tab:
      if (mods == 0 && gtk_widget_get_visible (self->popover) && self->items->len > 0 &&
          gtk_entry_buffer_get_length (self->buffer) > 0)
        {
          int row = _tagd_entry_highlighted_row (self);
          _tagd_entry_take_suggestion (self, row >= 0 ? (guint) row : 0);
          return TRUE;
        }
      return FALSE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (mods != 0 || !gtk_widget_get_visible (self->popover))
        return FALSE;
      _tagd_entry_move_highlight (self, keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down ? +1 : -1);
      return TRUE;
    case GDK_KEY_Escape:
      if (!gtk_widget_get_visible (self->popover))
        return FALSE;
      _tagd_entry_hide_suggestions (self);
      return TRUE;
    case GDK_KEY_BackSpace:
      /* "Empty" is decided now, when the key is handled (Protocol/sync.md rule 3). */
      if (gtk_entry_buffer_get_length (self->buffer) == 0 && mods == 0)
        {
          _tagd_entry_request (self, "field/deleteBackward", NULL, 0, NULL);
          return TRUE;
        }
      return FALSE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      {
        int start, end;
        if (mods == 0 && self->chips->len > 0 &&
            gtk_editable_get_position (GTK_EDITABLE (self->text)) == 0 &&
            !gtk_editable_get_selection_bounds (GTK_EDITABLE (self->text), &start, &end))
          {
            int last = nearest_chip (self, (int) self->chips->len - 1, -1);
            if (last >= 0)
              {
                _tagd_entry_hide_suggestions (self);
                select_chip (self, last, TRUE);
              }
            return TRUE;
          }
        return FALSE;
      }
    default:
      return FALSE;
    }
}

static void
on_focus_leave (GtkEventControllerFocus *controller, TagdEntry *self)
{
  /* Focus left the entry entirely: nothing stays selected, and tagd hears of it (it commits
   * the draft with commit-on-blur). */
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_selected (self->chips->pdata[i], FALSE);
  if (self->selected != -1)
    {
      self->selected = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }
  _tagd_entry_hide_suggestions (self);
  if (self->field != NULL && self->open_source == 0)
    _tagd_entry_request (self, "field/blur", NULL, self->commit_on_blur ? 0 : OP_LOCAL, NULL);
}

static void
on_text_focus_enter (GtkEventControllerFocus *controller, TagdEntry *self)
{
  if (self->selected >= 0)
    select_chip (self, -1, TRUE);
}

static gboolean
tagd_entry_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (TAGD_ENTRY (widget)->text);
}

static gboolean
tagd_entry_focus (GtkWidget *widget, GtkDirectionType direction)
{
  TagdEntry *self = TAGD_ENTRY (widget);
  /* Tab moves into and out of the entry as one stop: its text. Chips are reached with Left. */
  if (gtk_widget_has_focus (self->text) || focus_is_in_chips (self))
    return FALSE;
  return gtk_widget_grab_focus (self->text);
}

static void
on_text_clicked (GtkGestureClick *gesture, int n_press, double x, double y, TagdEntry *self)
{
  /* A click on the entry's empty area focuses the text, as in GtkEntry. */
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  if (picked == GTK_WIDGET (self))
    _tagd_entry_focus_text (self, -1);
}

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

static gboolean
open_idle_cb (gpointer data)
{
  TagdEntry *self = data;
  self->open_source = 0;
  _tagd_entry_send_open (self);
  return G_SOURCE_REMOVE;
}

static void
tagd_entry_constructed (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  G_OBJECT_CLASS (tagd_entry_parent_class)->constructed (object);
  self->field = _tagd_connection_register (self->conn, "entry", self, &_tagd_entry_session_vtable);
  /* Open once the construct properties (tags, options) are all set. */
  self->open_source = g_idle_add (open_idle_cb, self);
}

static void
tagd_entry_dispose (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  g_clear_handle_id (&self->open_source, g_source_remove);
  g_clear_handle_id (&self->suggest_source, g_source_remove);
  g_clear_handle_id (&self->clear_description, g_source_remove);
  g_clear_weak_pointer (&self->described);
  if (self->held != NULL)
    {
      g_queue_free_full (self->held, (GDestroyNotify) _tagd_entry_op_free);
      self->held = NULL;
    }
  if (self->field != NULL)
    {
      if (_tagd_entry_session_live (self))
        _tagd_connection_call (self->conn, "field/close", _tagd_entry_field_params (self), _tagd_entry_on_ignore_reply, g_object_ref (self->conn));
      _tagd_connection_unregister (self->conn, self->field);
      g_clear_pointer (&self->field, g_free);
    }
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
  g_free (self->announcement);
  g_string_free (self->mirror, TRUE);
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
  widget_class->grab_focus = tagd_entry_grab_focus;
  widget_class->focus = tagd_entry_focus;

  /**
   * TagdEntry:tags: (type GStrv)
   *
   * The tags, in order, as tagd keeps them. Setting it replaces every tag (tagd applies its
   * rules: duplicates and over-long tags are dropped).
   */
  properties[PROP_TAGS] = g_param_spec_boxed ("tags", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:prompt:
   *
   * The placeholder shown while the text is empty, also the text's accessible name.
   */
  properties[PROP_PROMPT] = g_param_spec_string ("prompt", NULL, NULL, NULL, RW);
  /**
   * TagdEntry:separators: (type GStrv)
   *
   * One-character strings that commit the text (`"\n"` means newline). %NULL: `,` and newline.
   */
  properties[PROP_SEPARATORS] = g_param_spec_boxed ("separators", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:max-tags:
   *
   * The most tags the entry takes, or -1 for tagd's own limit.
   */
  properties[PROP_MAX_TAGS] = g_param_spec_int ("max-tags", NULL, NULL, -1, G_MAXINT, -1, RW);
  /**
   * TagdEntry:max-tag-length:
   *
   * The longest tag in characters, or -1 for tagd's own limit.
   */
  properties[PROP_MAX_TAG_LENGTH] = g_param_spec_int ("max-tag-length", NULL, NULL, -1, G_MAXINT, -1, RW);
  /**
   * TagdEntry:case-sensitive:
   *
   * Whether tags differing only in case are different tags.
   */
  properties[PROP_CASE_SENSITIVE] = g_param_spec_boolean ("case-sensitive", NULL, NULL, FALSE, RW);
  /**
   * TagdEntry:transform:
   *
   * How new tags are rewritten.
   */
  properties[PROP_TRANSFORM] =
    g_param_spec_enum ("transform", NULL, NULL, TAGD_TYPE_TRANSFORM, TAGD_TRANSFORM_NONE, RW);
  /**
   * TagdEntry:pattern:
   *
   * A regular expression (tagd's syntax, see Protocol/README.md) every whole tag must match,
   * or %NULL. A pattern tagd cannot compile is reported as a warning and refuses nothing.
   */
  properties[PROP_PATTERN] = g_param_spec_string ("pattern", NULL, NULL, NULL, RW);
  /**
   * TagdEntry:allow: (type GStrv)
   *
   * When set, the only tags accepted (compared under the entry's equality). %NULL: any.
   */
  properties[PROP_ALLOW] = g_param_spec_boxed ("allow", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:deny: (type GStrv)
   *
   * Tags refused (compared under the entry's equality).
   */
  properties[PROP_DENY] = g_param_spec_boxed ("deny", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:suggestions: (type GStrv)
   *
   * The vocabulary the suggestion popover draws from as the user types (`field/suggest`).
   * %NULL: no suggestions.
   */
  properties[PROP_SUGGESTIONS] = g_param_spec_boxed ("suggestions", NULL, NULL, G_TYPE_STRV, RW);
  /**
   * TagdEntry:backspace-mode:
   *
   * What Backspace does on an empty text.
   */
  properties[PROP_BACKSPACE_MODE] =
    g_param_spec_enum ("backspace-mode", NULL, NULL, TAGD_TYPE_BACKSPACE_MODE, TAGD_BACKSPACE_MODE_REMOVE, RW);
  /**
   * TagdEntry:commit-on-blur:
   *
   * Whether the text becomes a tag when the focus leaves the entry.
   */
  properties[PROP_COMMIT_ON_BLUR] = g_param_spec_boolean ("commit-on-blur", NULL, NULL, FALSE, RW);
  /**
   * TagdEntry:history:
   *
   * How many undo steps tagd keeps, or -1 for its default (100).
   */
  properties[PROP_HISTORY] = g_param_spec_int ("history", NULL, NULL, -1, 100000, -1, RW);
  /**
   * TagdEntry:selected:
   *
   * The index of the selected chip, or -1 (tagd's `selected`).
   */
  properties[PROP_SELECTED] =
    g_param_spec_int ("selected", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:announcement:
   *
   * The last sentence tagd gave for assistive technology ("Added red."), in the language of
   * the application. A screen reader hears it on the focused part of the entry.
   */
  properties[PROP_ANNOUNCEMENT] =
    g_param_spec_string ("announcement", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_editable_install_properties (object_class, N_PROPS);

  /**
   * TagdEntry::tags-changed:
   * @self: the entry
   *
   * Emitted when the tags change, whoever changed them.
   */
  signals[SIGNAL_TAGS_CHANGED] =
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
  signals[SIGNAL_TAG_DROPPED] =
    g_signal_new ("tag-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, TAGD_TYPE_DROP_REASON, G_TYPE_INT);
  /**
   * TagdEntry::activate:
   * @self: the entry
   *
   * Emitted when Return is pressed on an empty text (nothing to commit), before the window's
   * default widget is activated, as for a #GtkEntry.
   */
  signals[SIGNAL_ACTIVATE] =
    g_signal_new ("activate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "entry");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_entry_init (TagdEntry *self)
{
  GtkEventController *keys, *focus;
  GtkGesture *click;

  _tagd_style_ensure ();
  self->conn = tagd_connection_get_default ();
  self->chips = g_ptr_array_new_with_free_func (g_object_unref);
  self->tags = g_new0 (char *, 1);
  self->mirror = g_string_new ("");
  self->held = g_queue_new ();
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

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "enter", G_CALLBACK (on_text_focus_enter), self);
  gtk_widget_add_controller (self->text, focus);

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_text_clicked), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

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
  if (_tagd_entry_strv_equal (self->tags, (char **) tags))
    return;
  set_tags_internal (self, g_strdupv ((char **) tags));
  _tagd_entry_reopen (self, TRUE);
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
           OP_ADD_TAGS, NULL);
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
            remove_chip (self, chip);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT]);
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
  if (*slot != NULL && value != NULL && _tagd_entry_strv_equal (*slot, (char **) value))
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEPARATORS]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TAGS]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TAG_LENGTH]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CASE_SENSITIVE]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSFORM]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATTERN]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DENY]);
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
  if (_tagd_entry_session_live (self))
    _tagd_connection_call (self->conn, "field/setSuggestions",
                           g_variant_new_parsed ("{'field': <%s>, 'suggestions': <%v>}", self->field,
                                                 g_variant_new_strv (suggestions ? suggestions : empty, -1)),
                           _tagd_entry_on_ignore_reply, g_object_ref (self));
  _tagd_entry_schedule_suggest (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUGGESTIONS]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKSPACE_MODE]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMMIT_ON_BLUR]);
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
  _tagd_entry_reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
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
