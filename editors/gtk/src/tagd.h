/* tagd.h: tag entry and tag cloud widgets for GTK 4, driven by the tagd daemon.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#define TAGD_INSIDE
#include "tagd-connection.h"
#include "tagd-entry.h"
#include "tagd-cloud.h"
#include "tagd-enums.h"
#undef TAGD_INSIDE

