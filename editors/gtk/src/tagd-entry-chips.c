/* tagd-entry-chips.c: the entry's chips: one per tag, rebuilt from tagd's tags (reusing the
 * chips of tags still there), the selected chip, and what is done to chips (remove, move, edit,
 * click), each a request to tagd.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-entry-private.h"

static void chip_remove_clicked (GtkButton *button, gpointer data);
static void chip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data);

static void
connect_chip (TagdEntry *self, TagdChip *chip)
{
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (chip->button, "clicked", G_CALLBACK (chip_remove_clicked), self);
  g_signal_connect (click, "pressed", G_CALLBACK (chip_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (chip), GTK_EVENT_CONTROLLER (click));
}

gboolean
_tagd_entry_focus_is_in_chips (TagdEntry *self)
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
  gboolean chip_had_focus = _tagd_entry_focus_is_in_chips (self);
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
  if (self->editing != NULL && !g_ptr_array_find (self->chips, self->editing, NULL))
    self->editing = NULL;

  self->selected = -1;
  if (old_selected >= 0)
    {
      guint index;
      /* The selected chip keeps the selection if it is still there; else the nearest one. */
      if (was_selected != NULL && g_ptr_array_find (self->chips, was_selected, &index))
        _tagd_entry_select_chip (self, (int) index, FALSE);
      else
        _tagd_entry_select_chip (self, _tagd_entry_nearest_chip (self, MIN (old_selected, (int) self->chips->len - 1), -1), FALSE);
    }
  else if (chip_had_focus)
    _tagd_entry_focus_text (self, -1);

  _tagd_entry_request_layout (self);
}

void
_tagd_entry_set_tags_internal (TagdEntry *self, char **tags /* transfer full */)
{
  if (_tagd_strv_equal (self->tags, tags))
    {
      g_strfreev (tags);
      return;
    }
  g_strfreev (self->tags);
  self->tags = tags;
  rebuild_chips (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_TAGS]);
  g_signal_emit (self, _tagd_entry_signals[SIGNAL_TAGS_CHANGED], 0);
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


static void
adopt_selection (TagdEntry *self, GVariant *state)
{
  int selected = (int) _tagd_variant_number (state, "selected", -1);

  if (self->select_pending > 0 || selected == self->selected)
    return;
  if (selected >= (int) self->chips->len)
    selected = -1;
  if (selected < 0 && !_tagd_entry_focus_is_in_chips (self))
    {
      /* Nothing to move focus from. */
      for (guint i = 0; i < self->chips->len; i++)
        _tagd_chip_set_selected (self->chips->pdata[i], FALSE);
      self->selected = -1;
      g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SELECTED]);
      return;
    }
  _tagd_entry_select_chip (self, selected, FALSE);
}

/* tagd's `flagged`: the tags kept though they break the field's rules (field/setOptions made a
 * rule stricter). Their chips are marked, with tagd's sentence that said so. */
static void
apply_flags (TagdEntry *self, GVariant *state)
{
  g_autoptr (GVariant) flagged = _tagd_variant_lookup (state, "flagged");
  g_autoptr (GVariant) outcome = _tagd_variant_lookup (state, "outcome");
  g_autoptr (GVariant) newly = _tagd_variant_lookup (outcome, "flagged");
  g_autofree gboolean *on = g_new0 (gboolean, self->chips->len + 1);
  const char *sentence = NULL;

  if (newly != NULL && g_variant_n_children (newly) > 0 && g_variant_lookup (state, "announcement", "&s", &sentence))
    {
      g_free (self->flag_sentence);
      self->flag_sentence = g_strdup (sentence);
    }
  for (gsize i = 0; flagged != NULL && i < g_variant_n_children (flagged); i++)
    {
      g_autoptr (GVariant) it = g_variant_get_child_value (flagged, i);
      g_autoptr (GVariant) f = g_variant_is_of_type (it, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (it) : g_variant_ref (it);
      int index = (int) _tagd_variant_number (f, "index", -1);
      if (index >= 0 && index < (int) self->chips->len)
        on[index] = TRUE;
    }
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_flagged (self->chips->pdata[i], on[i], self->flag_sentence);
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
        _tagd_entry_set_tags_internal (self, _tagd_variant_strv (tags));
      if (announce)
        _tagd_entry_apply_outcome (self, state);
      apply_flags (self, state);
    }
  adopt_selection (self, state);
}

/* ---- chips: selection, removal */

/* The nearest chip to @from that is not being removed, looking in direction @step first (-1
 * or +1) and then the other way; -1 if none. */
int
_tagd_entry_nearest_chip (TagdEntry *self, int from, int step)
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

void
_tagd_entry_remove_chip (TagdEntry *self, TagdChip *chip)
{
  /* Hidden at once, so that a second Delete, typed before tagd answers, removes the next
   * chip as it would for a slow typist, not the same tag again. */
  chip->removing = TRUE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  _tagd_entry_request (self, "field/removeTag", g_variant_new_parsed ("{'tag': <%s>}", chip->tag), OP_REMOVE, chip);
}

/* Selects the chip at @index (-1: none, back to the text) and tells tagd (field/select), whose
 * `selected` the entry then shows. The Remove button of the selected chip has the focus. */
void
_tagd_entry_select_chip (TagdEntry *self, int index, gboolean tell_tagd)
{
  int previous = self->selected;

  if (index >= (int) self->chips->len)
    index = -1;
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_selected (self->chips->pdata[i], (int) i == index);
  self->selected = index;
  if (index >= 0)
    gtk_widget_grab_focus (TAGD_CHIP (self->chips->pdata[index])->button);
  else if (_tagd_entry_focus_is_in_chips (self) || previous >= 0)
    _tagd_entry_focus_text (self, -1);
  if (tell_tagd)
    {
      GVariant *which = index >= 0 ? g_variant_new_int64 (tagd_index (self, index))
                                   : g_variant_new ("mv", NULL);
      _tagd_entry_request (self, "field/select",
               g_variant_new_parsed ("{'index': <%v>}", which), OP_SELECT | OP_LOCAL, NULL);
    }
  if (previous != index)
    g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SELECTED]);
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
    _tagd_entry_remove_chip (self, TAGD_CHIP (chip));
  if (was_selected || _tagd_entry_focus_is_in_chips (self))
    _tagd_entry_select_chip (self, -1, FALSE);
}

gboolean
_tagd_entry_focus_is_in_editor (TagdEntry *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  return self->editing != NULL && self->editing->editor != NULL && focus != NULL &&
         (focus == self->editing->editor || gtk_widget_is_ancestor (focus, self->editing->editor));
}

static void
on_editor_focus_leave (GtkEventControllerFocus *controller, TagdEntry *self)
{
  /* Focus went elsewhere (a click, Tab): the edit is committed, as GTK's editable labels do. */
  _tagd_entry_finish_edit (self, TRUE, FALSE);
}

/* Return, F2 or a double-click on a chip: the tag is edited where it stands (its text in an
 * entry in the chip); Return commits it with field/replaceTag, which keeps the tag as it was
 * when tagd refuses the new text (a duplicate, too long, ...) and says why. The draft is not
 * touched. (field/editTag, which takes the tag out of the list into the draft, would lose
 * the tag whenever its new text is refused.) */
void
_tagd_entry_edit_chip (TagdEntry *self, int index)
{
  TagdChip *chip;
  GtkWidget *editor;
  GtkEventController *focus;

  if (index < 0 || index >= (int) self->chips->len)
    return;
  chip = self->chips->pdata[index];
  if (chip->removing || chip == self->editing)
    return;
  _tagd_entry_finish_edit (self, TRUE, FALSE);
  _tagd_entry_hide_suggestions (self);
  self->editing = chip;
  for (guint i = 0; i < self->chips->len; i++)
    _tagd_chip_set_selected (self->chips->pdata[i], (int) i == index);
  self->selected = index;
  editor = _tagd_chip_begin_edit (chip);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_editor_focus_leave), self);
  gtk_widget_add_controller (editor, focus);
  _tagd_entry_request_layout (self);
}

/* Ends the edit in place: with @commit, field/replaceTag with the text (unless unchanged);
 * with @refocus, the chip stays selected with the focus on its Remove button, where what tagd
 * says about the edit is announced. */
void
_tagd_entry_finish_edit (TagdEntry *self, gboolean commit, gboolean refocus)
{
  TagdChip *chip = self->editing;
  g_autofree char *text = NULL;
  guint index;

  if (chip == NULL)
    return;
  self->editing = NULL;
  if (!g_ptr_array_find (self->chips, chip, &index))
    return;
  if (refocus)
    _tagd_entry_select_chip (self, (int) index, TRUE);
  text = _tagd_chip_end_edit (chip);
  if (commit && text != NULL && !g_str_equal (text, chip->tag))
    _tagd_entry_request (self, "field/replaceTag",
                         g_variant_new_parsed ("{'index': <%x>, 'text': <%s>}",
                                               (gint64) tagd_index (self, (int) index), text),
                         0, NULL);
  _tagd_entry_request_layout (self);
}

/* Alt+Left / Alt+Right: tagd moves the tag; the chip moves at once here too, so that the
 * next key acts on the order the user sees. */
void
_tagd_entry_move_chip (TagdEntry *self, int step)
{
  int from = self->selected, to = _tagd_entry_nearest_chip (self, from + step, step);
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
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_TAGS]);
  g_signal_emit (self, _tagd_entry_signals[SIGNAL_TAGS_CHANGED], 0);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SELECTED]);
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
    _tagd_entry_edit_chip (self, (int) index);
  else if ((int) index != self->selected)
    _tagd_entry_select_chip (self, (int) index, TRUE);
}

