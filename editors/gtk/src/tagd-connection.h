/* tagd-connection.h: the one tagd child an application shares.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TAGD_TYPE_CONNECTION (tagd_connection_get_type ())
G_DECLARE_FINAL_TYPE (TagdConnection, tagd_connection, TAGD, CONNECTION, GObject)

TagdConnection *tagd_connection_get_default (void);
const char     *tagd_connection_get_program (TagdConnection *self);
void            tagd_connection_set_program (TagdConnection *self,
                                             const char     *program);
GPid            tagd_connection_get_pid     (TagdConnection *self);
guint           tagd_connection_get_restart_count (TagdConnection *self);
void            tagd_connection_call_async  (TagdConnection      *self,
                                             const char          *method,
                                             GVariant            *params,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
GVariant       *tagd_connection_call_finish (TagdConnection      *self,
                                             GAsyncResult        *result,
                                             GError             **error);

G_END_DECLS
