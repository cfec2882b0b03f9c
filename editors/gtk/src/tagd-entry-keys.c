/* tagd-entry-keys.c: the entry's keyboard and focus: keys on the text and on a selected chip
 * (Protocol/sync.md: what is a request, what is typing), one Tab stop, blur.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-entry-private.h"

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                TagdEntry             *self)
{
  GdkModifierType mods = state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK | GDK_SUPER_MASK);
  gboolean on_chip = self->selected >= 0 && self->selected < (int) self->chips->len && _tagd_entry_focus_is_in_chips (self);

  /* Chips come before the text in reading order: in right-to-left layouts they are on its
   * right, so the arrow that goes "back" is Right. */
  if (gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL)
    {
      if (keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left)
        keyval = GDK_KEY_Right;
      else if (keyval == GDK_KEY_Right || keyval == GDK_KEY_KP_Right)
        keyval = GDK_KEY_Left;
    }

  /* A tag edited in place: Return commits, Escape cancels; the rest is the editor's. */
  if (_tagd_entry_focus_is_in_editor (self))
    {
      if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) && mods == 0)
        {
          _tagd_entry_finish_edit (self, TRUE, TRUE);
          return TRUE;
        }
      if (keyval == GDK_KEY_Escape && mods == 0)
        {
          _tagd_entry_finish_edit (self, FALSE, TRUE);
          return TRUE;
        }
      return FALSE;
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
            _tagd_entry_move_chip (self, -1);
          else if (mods == 0)
            {
              int prev = i > 0 ? _tagd_entry_nearest_chip (self, i - 1, -1) : -1;
              if (prev >= 0 && prev < i)
                _tagd_entry_select_chip (self, prev, TRUE);
            }
          return TRUE;
        case GDK_KEY_Right:
        case GDK_KEY_KP_Right:
          if (mods == GDK_ALT_MASK)
            _tagd_entry_move_chip (self, +1);
          else if (mods == 0)
            {
              int next = _tagd_entry_nearest_chip (self, i + 1, +1);
              if (next > i)
                _tagd_entry_select_chip (self, next, TRUE);
              else
                {
                  _tagd_entry_select_chip (self, -1, TRUE);
                  _tagd_entry_focus_text (self, 0);
                }
            }
          return TRUE;
        case GDK_KEY_Home:
        case GDK_KEY_KP_Home:
          _tagd_entry_select_chip (self, _tagd_entry_nearest_chip (self, 0, +1), TRUE);
          return TRUE;
        case GDK_KEY_End:
        case GDK_KEY_KP_End:
        case GDK_KEY_Escape:
          _tagd_entry_select_chip (self, -1, TRUE);
          return TRUE;
        case GDK_KEY_Delete:
        case GDK_KEY_KP_Delete:
        case GDK_KEY_BackSpace:
          {
            /* The selection moves to the next chip (Delete) or the previous one (Backspace),
             * else the other way, else back to the text. */
            int step = keyval == GDK_KEY_BackSpace ? -1 : +1;
            _tagd_entry_remove_chip (self, self->chips->pdata[i]);
            _tagd_entry_select_chip (self, _tagd_entry_nearest_chip (self, i + step, step), TRUE);
            return TRUE;
          }
        case GDK_KEY_Return:
        case GDK_KEY_KP_Enter:
        case GDK_KEY_ISO_Enter:
        case GDK_KEY_F2:
          _tagd_entry_edit_chip (self, i);
          return TRUE;
        case GDK_KEY_Tab:
        case GDK_KEY_ISO_Left_Tab:
        case GDK_KEY_KP_Tab:
          return FALSE;
        default:
          /* Anything typed on a chip goes into the text, at its end. */
          if ((mods & ~GDK_SHIFT_MASK) == 0 && gdk_keyval_to_unicode (keyval) != 0)
            {
              _tagd_entry_select_chip (self, -1, TRUE);
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
          g_signal_emit (self, _tagd_entry_signals[SIGNAL_ACTIVATE], 0);
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
            int last = _tagd_entry_nearest_chip (self, (int) self->chips->len - 1, -1);
            if (last >= 0)
              {
                _tagd_entry_hide_suggestions (self);
                _tagd_entry_select_chip (self, last, TRUE);
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
      g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_SELECTED]);
    }
  _tagd_entry_hide_suggestions (self);
  if (_tagd_session_started (self->session))
    _tagd_entry_request (self, "field/blur", NULL, self->commit_on_blur ? 0 : OP_LOCAL, NULL);
}

static void
on_text_focus_enter (GtkEventControllerFocus *controller, TagdEntry *self)
{
  if (self->selected >= 0)
    _tagd_entry_select_chip (self, -1, TRUE);
}

gboolean
_tagd_entry_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (TAGD_ENTRY (widget)->text);
}

gboolean
_tagd_entry_focus (GtkWidget *widget, GtkDirectionType direction)
{
  TagdEntry *self = TAGD_ENTRY (widget);
  /* Tab moves into and out of the entry as one stop: its text. Chips are reached with Left. */
  if (gtk_widget_has_focus (self->text) || _tagd_entry_focus_is_in_chips (self))
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

/* The key, focus and click controllers on the entry and its text. */
void
_tagd_entry_keys_init (TagdEntry *self)
{
  GtkEventController *keys, *focus;
  GtkGesture *click;

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
}
