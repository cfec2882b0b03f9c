/* tagd-style.c: the widgets' default look (Adwaita-friendly), at theme priority so an
 * application's own CSS wins.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gtk/gtk.h>

#include "tagd-private.h"
#include "tagd-style.h"

static const char css[] =
  "entry.tagd-entry { padding-top: 4px; padding-bottom: 4px; min-height: 26px; }\n"
  /* The text is a GtkEntry of its own: only the outer entry draws a frame and a focus ring. */
  "entry.tagd-entry > entry.tagd-text, entry.tagd-entry > entry.tagd-text:focus-within {"
  "  background: none; border: none; box-shadow: none; outline: none; margin: 0;"
  "  padding: 0; min-height: 26px; }\n"
  "entry.tagd-entry > entry.tagd-text.error { color: @error_color; }\n"
  "entry.tagd-entry > label.tagd-message { font-size: smaller; color: @error_color; margin: 2px 0 2px; }\n"
  "tagd-chip { border-radius: 9999px; padding: 0 1px 0 10px; min-height: 26px;"
  "  background-color: alpha(currentColor, 0.1); transition: background-color 200ms ease-out; }\n"
  "tagd-chip > label { margin-right: 2px; }\n"
  "tagd-chip:dir(rtl) { padding: 0 10px 0 1px; }\n"
  "tagd-chip:dir(rtl) > label { margin-right: 0; margin-left: 2px; }\n"
  "tagd-chip > button { min-width: 22px; min-height: 22px; padding: 0; margin: 2px; }\n"
  "tagd-chip.selected, tagd-chip:focus-within { background-color: @theme_selected_bg_color;"
  "  color: @theme_selected_fg_color; }\n"
  "tagd-chip.flash { background-color: alpha(@warning_color, 0.45); }\n"
  "tagd-cloud > button.tagd-cloud-tag.flat, tagd-cloud > button.tagd-cloud-tag.flat:hover,"
  "tagd-cloud > button.tagd-cloud-tag.flat:active, tagd-cloud > button.tagd-cloud-tag.flat:checked,"
  "tagd-cloud > button.tagd-cloud-tag.flat:checked:hover, tagd-cloud > button.tagd-cloud-tag.flat:checked:active {"
  "  border-radius: 9999px; padding: 4px 14px; background-image: none;"
  "  background-color: transparent; border-color: transparent; box-shadow: none; }\n"
  "tagd-cloud > button.tagd-cloud-tag.flat:hover { background-color: alpha(currentColor, 0.07); }\n"
  "tagd-cloud > button.tagd-cloud-tag.flat { font-weight: 600; }\n";

/* An application using libadwaita has its accent colours: selected chips take them. */
static const char adwaita_css[] =
  "tagd-chip.selected, tagd-chip:focus-within { background-color: @accent_bg_color;"
  "  color: @accent_fg_color; }\n";

void
_tagd_style_ensure (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  GtkCssProvider *provider;

  _tagd_i18n_init ();
  if (display == NULL || g_object_get_data (G_OBJECT (display), "tagd-style") != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (provider, css, -1);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 1);
  g_object_set_data_full (G_OBJECT (display), "tagd-style", provider, g_object_unref);
  if (g_type_from_name ("AdwStyleManager") != 0)
    {
      provider = gtk_css_provider_new ();
      gtk_css_provider_load_from_data (provider, adwaita_css, -1);
      gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 1);
      g_object_set_data_full (G_OBJECT (display), "tagd-style-adwaita", provider, g_object_unref);
    }
}
