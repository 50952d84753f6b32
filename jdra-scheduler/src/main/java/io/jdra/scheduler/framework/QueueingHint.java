package io.jdra.scheduler.framework;

/** Whether an event may make a rejected pod schedulable (upstream {@code fwk.QueueingHint}). */
public enum QueueingHint {
  /** The event cannot help this pod; it stays where it is. */
  SKIP,
  /** The event may help; the pod goes to activeQ (or backoffQ while backing off). */
  QUEUE;

  /**
   * Decides for one event and one rejected pod, called on the informer thread with the old and new
   * object ({@code oldObj} null for adds, {@code newObj} null for deletes). Must be cheap and must
   * not block; an exception counts as {@link #QUEUE}.
   */
  @FunctionalInterface
  public interface Fn {
    QueueingHint hint(io.fabric8.kubernetes.api.model.Pod pod, Object oldObj, Object newObj)
        throws Exception;
  }

  /** An event a plugin registers, with an optional hint (null: always queue). */
  public record EventWithHint(ClusterEvent event, Fn hint) {}
}
