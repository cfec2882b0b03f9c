/* tagd-cloud-animation.c: a spacing change runs 0.7 s on the frame clock (ease-out cubic),
 * asking cloud/layout for the flow at the spacing reached at each tick (never overlapping;
 * tagd-cloud-layout.c), one request in flight at a time;
 * with gtk-enable-animations off the cloud jumps to the new layout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "tagd-cloud-private.h"

static gboolean
animation_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  double t, eased;

  if (self->in_flight)
    return G_SOURCE_CONTINUE;
  if (self->anim_done)
    {
      self->tick_id = 0;
      g_object_notify_by_pspec (G_OBJECT (self), _tagd_cloud_properties[PROP_ANIMATING]);
      return G_SOURCE_REMOVE;
    }
  t = (gdk_frame_clock_get_frame_time (clock) - self->anim_start) / (double) ANIMATION_USEC;
  if (t >= 1.0)
    {
      t = 1.0;
      self->anim_done = TRUE;
    }
  eased = 1.0 - pow (1.0 - CLAMP (t, 0.0, 1.0), 3);  /* ease-out cubic */
  _tagd_cloud_request_layout (self, TRUE, eased);
  return G_SOURCE_CONTINUE;
}

static gboolean
animations_enabled (TagdCloud *self)
{
  gboolean enabled = TRUE;
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-enable-animations", &enabled, NULL);
  return enabled;
}

/* The spacing changed from @from to self->spacing. */
void
_tagd_cloud_animate_spacing (TagdCloud *self, double from)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || !animations_enabled (self) ||
      self->frames->len != self->buttons->len)
    {
      _tagd_cloud_request_layout (self, FALSE, 1.0);
      return;
    }
  self->anim_from = from;
  self->anim_start = gdk_frame_clock_get_frame_time (gtk_widget_get_frame_clock (GTK_WIDGET (self)));
  self->anim_done = FALSE;
  if (self->tick_id == 0)
    {
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), animation_tick, NULL, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), _tagd_cloud_properties[PROP_ANIMATING]);
    }
}

void
_tagd_cloud_stop_animation (TagdCloud *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
}
