package io.jdra.runtime.logging;

import io.jdra.runtime.Ctx;

/**
 * Upstream's {@code utilruntime.HandleErrorWithContext}: the one place where errors that cannot be
 * returned to a caller (informer callbacks, background loops, failed work items) are reported. It
 * logs them with the context's logger, so they carry the component's name and values.
 */
public final class HandleError {
  private HandleError() {}

  public static void handle(Ctx ctx, Throwable err, String msg, Object... kv) {
    handle(ctx.logger(), err, msg, kv);
  }

  public static void handle(Logger logger, Throwable err, String msg, Object... kv) {
    logger.error(err, msg, kv);
  }
}
