/* tests/gtk-4.14/announce.h: GTK 4.8's headers made to say 4.14, with the one 4.14 function
 * that tagd-entry-announce.c's GTK >= 4.14 branch calls, declared as GTK 4.14's
 * gtk/gtkaccessible.h and gtk/gtkenums.h declare it (GDK_AVAILABLE_IN_4_14). Force-included
 * by meson.build to compile that branch where only GTK 4.8 is installed; nothing built with it
 * is linked or run, so it shows that the branch compiles, not that it works.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#if !GTK_CHECK_VERSION (4, 14, 0)
#undef GTK_MINOR_VERSION
#define GTK_MINOR_VERSION (14)

typedef enum {
  GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_LOW,
  GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM,
  GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_HIGH
} GtkAccessibleAnnouncementPriority;

void gtk_accessible_announce (GtkAccessible                     *self,
                              const char                        *message,
                              GtkAccessibleAnnouncementPriority  priority);
#endif
