/* tagd-entry-suggest.c: the suggestion popover: field/suggest as the text changes, the matched
 * letters in bold, and taking a suggestion as a typed tag.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tagd-entry-private.h"
#include "tagd-enums.h"
#include "tagd-style.h"

/* ---- suggestions (field/suggest) */

/* @text with the ranges in @matches (character offsets, utf-32) in bold, as Pango markup. */
static char *
highlight_markup (const char *text, GVariant *matches)
{
  GString *out = g_string_new ("");
  glong n = g_utf8_strlen (text, -1);
  gboolean *bold = g_new0 (gboolean, n + 1);
  GVariantIter iter;
  GVariant *item;
  gboolean in = FALSE;
  const char *p = text;

  if (matches != NULL)
    {
      g_variant_iter_init (&iter, matches);
      while ((item = g_variant_iter_next_value (&iter)))
        {
          g_autoptr (GVariant) m = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
          glong s = (glong) _tagd_variant_number (m, "start", 0), e = (glong) _tagd_variant_number (m, "end", 0);
          for (glong i = MAX (s, 0); i < e && i < n; i++)
            bold[i] = TRUE;
          g_variant_unref (item);
        }
    }
  for (glong i = 0; i < n; i++)
    {
      const char *next = g_utf8_next_char (p);
      g_autofree char *piece = g_markup_escape_text (p, next - p);
      if (bold[i] != in)
        g_string_append (out, bold[i] ? "<b>" : "</b>");
      in = bold[i];
      g_string_append (out, piece);
      p = next;
    }
  if (in)
    g_string_append (out, "</b>");
  g_free (bold);
  return g_string_free (out, FALSE);
}

void
_tagd_entry_hide_suggestions (TagdEntry *self)
{
  g_ptr_array_set_size (self->items, 0);
  gtk_popover_popdown (GTK_POPOVER (self->popover));
}

/* Says tagd's sentence for a field/suggest result (its `announcement`): the library keeps no
 * wording of its own. */
static void
speak_suggestions (TagdEntry *self, GVariant *result)
{
  const char *sentence = NULL;

  if (g_variant_lookup (result, "announcement", "&s", &sentence) && sentence[0] != '\0')
    _tagd_entry_speak (self, sentence);
}

static void
on_suggest_reply (gpointer owner, GVariant *result, const GError *error, gboolean current, gpointer data)
{
  TagdEntry *self = TAGD_ENTRY (owner);
  guint serial = GPOINTER_TO_UINT (data);
  g_autoptr (GVariant) items = NULL;
  g_auto (GStrv) before = NULL;
  gboolean was_shown;
  GtkWidget *child;
  GVariantIter iter;
  GVariant *item;

  if (error != NULL)
    {
      _tagd_report_error ("field/suggest", error);
      return;
    }
  if (serial != self->suggest_serial || !current)
    return;
  was_shown = gtk_widget_get_visible (self->popover);
  g_ptr_array_add (self->items, NULL);
  before = g_strdupv ((char **) self->items->pdata);
  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);
  g_ptr_array_set_size (self->items, 0);
  items = _tagd_variant_lookup (result, "items");
  if (items != NULL && gtk_entry_buffer_get_length (self->buffer) > 0 && gtk_widget_has_focus (self->text))
    {
      g_variant_iter_init (&iter, items);
      while ((item = g_variant_iter_next_value (&iter)))
        {
          g_autoptr (GVariant) it = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
          g_autoptr (GVariant) matches = _tagd_variant_lookup (it, "matches");
          const char *text = NULL;

          if (g_variant_lookup (it, "text", "&s", &text))
            {
              g_autofree char *markup = highlight_markup (text, matches);
              GtkWidget *label = gtk_label_new (NULL);
              GtkWidget *row = gtk_list_box_row_new ();

              gtk_label_set_markup (GTK_LABEL (label), markup);
              gtk_label_set_xalign (GTK_LABEL (label), 0);
              gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
              gtk_widget_set_focusable (row, FALSE);
              gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
              gtk_list_box_append (GTK_LIST_BOX (self->list), row);
              g_ptr_array_add (self->items, g_strdup (text));
            }
          g_variant_unref (item);
        }
    }
  if (self->items->len > 0)
    {
      gboolean same = was_shown && g_strv_length (before) == self->items->len;
      for (guint i = 0; same && i < self->items->len; i++)
        same = g_str_equal (before[i], self->items->pdata[i]);
      gtk_widget_queue_allocate (GTK_WIDGET (self));
      gtk_popover_popup (GTK_POPOVER (self->popover));
      /* The popover never takes the focus, so a screen reader hears of it from the text:
       * tagd's sentence (how many, and the first: what Tab takes) whenever the list changes. */
      if (!same)
        speak_suggestions (self, result);
    }
  else
    {
      gtk_popover_popdown (GTK_POPOVER (self->popover));
      /* The list went away while the user typed: tagd's "No suggestions." says why. */
      if (was_shown && gtk_entry_buffer_get_length (self->buffer) > 0 && gtk_widget_has_focus (self->text))
        speak_suggestions (self, result);
    }
}

static gboolean
suggest_cb (gpointer data)
{
  TagdEntry *self = data;

  self->suggest_source = 0;
  self->suggest_serial++;
  if ((self->suggestions == NULL && self->vault == NULL) || gtk_entry_buffer_get_length (self->buffer) == 0 ||
      !gtk_widget_has_focus (self->text) || !_tagd_session_is_live (self->session))
    {
      _tagd_entry_hide_suggestions (self);
      return G_SOURCE_REMOVE;
    }
  _tagd_session_call (self->session, "field/suggest",
                      g_variant_new_parsed ("{'limit': <%x>}", (gint64) SUGGESTION_LIMIT),
                      self, on_suggest_reply, GUINT_TO_POINTER (self->suggest_serial));
  return G_SOURCE_REMOVE;
}

/* After the buffer changed (the didChange is already out, so tagd's draft has the change). */
void
_tagd_entry_schedule_suggest (TagdEntry *self)
{
  if (self->suggestions == NULL && self->vault == NULL && !gtk_widget_get_visible (self->popover))
    return;
  if (self->suggest_source == 0)
    self->suggest_source = g_idle_add (suggest_cb, self);
}

int
_tagd_entry_highlighted_row (TagdEntry *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (GTK_LIST_BOX (self->list));
  return row != NULL ? gtk_list_box_row_get_index (row) : -1;
}

/* Takes a suggestion as if it had been typed and Return pressed: the text becomes the
 * suggestion, then field/submit commits it under tagd's rules. */
void
_tagd_entry_take_suggestion (TagdEntry *self, guint index)
{
  g_autofree char *text = NULL;

  if (index >= self->items->len)
    return;
  text = g_strdup (self->items->pdata[index]);
  _tagd_entry_hide_suggestions (self);
  gtk_editable_set_text (GTK_EDITABLE (self->text), text);
  gtk_editable_set_position (GTK_EDITABLE (self->text), -1);
  _tagd_entry_request (self, "field/submit", NULL, 0, NULL);
  g_clear_handle_id (&self->suggest_source, g_source_remove);
}

void
_tagd_entry_on_row_activated (GtkListBox *list, GtkListBoxRow *row, TagdEntry *self)
{
  _tagd_entry_take_suggestion (self, (guint) gtk_list_box_row_get_index (row));
  _tagd_entry_focus_text (self, -1);
}

void
_tagd_entry_move_highlight (TagdEntry *self, int step)
{
  int n = (int) self->items->len;
  int i = _tagd_entry_highlighted_row (self);
  GtkListBoxRow *row;

  if (n == 0)
    return;
  i = i < 0 ? (step > 0 ? 0 : n - 1) : (i + step + n) % n;
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->list), i);
  gtk_list_box_select_row (GTK_LIST_BOX (self->list), row);
}
