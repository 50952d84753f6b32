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

  /**
   * Which pods a hint can say {@link #QUEUE} for, so that the queue asks it only about those
   * instead of about every waiting pod (upstream asks every pod; the answers are the same). The
   * contract: whenever {@link #eventKey} gives a key {@code k} for an event, the hint returns
   * {@link #SKIP} for every pod whose {@link #podKeys} do not contain {@code k}. Both must be cheap
   * and must not block; they run under the queue's lock.
   */
  public interface Narrowing {
    /** The keys of the objects this pod waits for (e.g. {@code namespace/claim} names). */
    void podKeys(io.fabric8.kubernetes.api.model.Pod pod, java.util.function.Consumer<String> out);

    /** The key of the event's object, or null when the hint may queue any pod for this event. */
    String eventKey(Object oldObj, Object newObj);
  }

  /**
   * An event a plugin registers, with an optional hint (null: always queue) and an optional
   * narrowing of the pods the hint needs to be asked about (null: all of them).
   */
  public record EventWithHint(ClusterEvent event, Fn hint, Narrowing narrowing) {
    public EventWithHint(ClusterEvent event, Fn hint) {
      this(event, hint, null);
    }
  }
}
