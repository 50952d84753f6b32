package io.jdra.runtime.cache;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;

/**
 * Event handler registration tied to a context: the handler is removed from the informer when the
 * context is cancelled, so handlers never check for cancellation (upstream controllers remove their
 * handlers on context cancellation the same way).
 *
 * <p>Handlers run on the informer's event thread: they must only filter and enqueue keys.
 */
public final class Handlers {
  private Handlers() {}

  /**
   * Adds the handler now; it is removed when {@code ctx} is cancelled or the returned registration
   * is closed. On an already cancelled context the handler is not added.
   */
  public static <T> Ctx.Registration add(
      Ctx ctx, SharedIndexInformer<T> informer, ResourceEventHandler<? super T> handler) {
    if (ctx.isCancelled()) {
      return () -> {};
    }
    informer.addEventHandler(handler);
    Ctx.Registration onCancel = ctx.onCancel(() -> informer.removeEventHandler(handler));
    return () -> {
      onCancel.close();
      informer.removeEventHandler(handler);
    };
  }
}
