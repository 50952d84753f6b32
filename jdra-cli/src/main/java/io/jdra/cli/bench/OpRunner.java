package io.jdra.cli.bench;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.runtime.client.ApiRequests;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Executes a workload's ops in order against the cluster, as scheduler_perf's runWorkload does:
 * objects created with 16 workers, namespaces created on first use, createPods waiting until its
 * pods are scheduled, churn in the background until {@link #close}.
 */
final class OpRunner implements AutoCloseable {
  private final KubernetesClient c;
  private final ApiRequests.Resource<CreatedPod> podCreates;
  private final Templates templates;
  private final PodWatch watch;
  private final Measurement measurement;
  private final Duration timeout;
  private final PrintWriter progress;
  private final AllocatorFeatures features;
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> podsPerNamespace = new LinkedHashMap<>();
  private final List<Churn> churns = new ArrayList<>();
  private int plainNodes;
  private Measurement.Result result;

  OpRunner(
      KubernetesClient c,
      Templates templates,
      PodWatch watch,
      Measurement measurement,
      Duration timeout,
      PrintWriter progress,
      AllocatorFeatures features) {
    this.c = c;
    this.podCreates = new ApiRequests(c).resource("v1", "pods", CreatedPod.class);
    this.templates = templates;
    this.watch = watch;
    this.measurement = measurement;
    this.timeout = timeout;
    this.progress = progress;
    this.features = features;
  }

  /** Runs the ops; returns the measurement (stopped after the last measured op, or now). */
  Measurement.Result run(List<Op> ops) throws Exception {
    for (Op op : ops) {
      long start = System.nanoTime();
      execute(op);
      progress.printf("%s done in %.1fs%n", describe(op), (System.nanoTime() - start) / 1e9);
      progress.flush();
    }
    return stopMeasuring();
  }

  /** Namespaces that createPods ops used, with the pods created there (steady state: a batch). */
  Map<String, Integer> podNamespaces() {
    return podsPerNamespace;
  }

  private void execute(Op op) throws Exception {
    switch (op) {
      case Op.CreateNodes n -> createNodes(n);
      case Op.CreateResourceDriver d -> createSlices(d);
      case Op.CreateAny a -> createAny(a);
      case Op.AllocResourceClaims a -> ClaimAllocation.allocate(c, a.namespace(), features);
      case Op.CreatePods p -> createPods(p);
      case Op.Barrier b -> barrier(b.namespaces());
      case Op.Churn ch -> churns.add(Churn.start(c, templates, ch, this::ensureNamespace));
      case Op.Sleep s -> Thread.sleep(s.duration().toMillis());
      case Op.StartCollectingMetrics s -> measurement.collect(s.namespaces());
      case Op.StopCollectingMetrics s -> stopMeasuring();
    }
  }

  private Measurement.Result stopMeasuring() throws InterruptedException {
    if (result == null) {
      result = measurement.stop();
    }
    return result;
  }

  private void createNodes(Op.CreateNodes op) throws Exception {
    Parallel.forEach(
        op.count(),
        i -> {
          Node n =
              op.nodeTemplatePath() == null
                  ? Nodes.plain("scheduler-perf-" + (plainNodes + i))
                  : templates.render(op.nodeTemplatePath(), Map.of("Index", i), Node.class);
          Nodes.defaultAllocatable(n);
          c.nodes().resource(n).create();
        });
    if (op.nodeTemplatePath() == null) {
      plainNodes += op.count();
    }
  }

  private void createSlices(Op.CreateResourceDriver op) throws Exception {
    Pattern glob = Pattern.compile(op.nodes().replace(".", "\\.").replace("*", ".*"));
    List<String> names = new ArrayList<>();
    for (Node n : c.nodes().list().getItems()) {
      if (glob.matcher(n.getMetadata().getName()).matches()) {
        names.add(n.getMetadata().getName());
      }
    }
    Parallel.forEach(
        names.size(),
        i ->
            c.resource(Nodes.driverSlice(op.driverName(), names.get(i), op.maxClaimsPerNode()))
                .create());
  }

  private void createAny(Op.CreateAny op) throws Exception {
    if (op.namespace() != null) {
      ensureNamespace(op.namespace());
    }
    int count = op.count() == null ? 1 : op.count();
    Parallel.forEach(
        count,
        i -> {
          Map<String, Object> params = new HashMap<>(op.templateParams());
          if (op.count() != null) {
            params.put("Index", i);
          }
          HasMetadata o = templates.render(op.templatePath(), params, HasMetadata.class);
          if (op.namespace() != null) {
            o.getMetadata().setNamespace(op.namespace());
          }
          c.resource(o).create();
        });
  }

  private void createPods(Op.CreatePods op) throws Exception {
    ensureNamespace(op.namespace());
    if (op.collectMetrics()) {
      measurement.collect(List.of(op.namespace()));
    }
    List<String> lastBatch = List.of();
    if (op.steadyState()) {
      podsPerNamespace.merge(op.namespace(), op.count(), Math::max);
      lastBatch = new SteadyState(c, watch, op, this::createBatch, progress).run();
    } else {
      podsPerNamespace.merge(op.namespace(), op.count(), Integer::sum);
      createBatch(op);
      if (!op.skipWaitToCompletion()) {
        awaitScheduled(op.namespace(), podsPerNamespace.get(op.namespace()));
      }
    }
    if (op.collectMetrics()) {
      stopMeasuring();
    }
    if (op.steadyState()) {
      // The last batch is not measured, but must still get scheduled for the end-state check;
      // earlier batches were deleted, so it is these pods the watch must see bound.
      awaitBound(op.namespace(), lastBatch);
    }
  }

  /**
   * Creates the op's {@code count} pods, .Index 0..count-1, telling the tracker if measured;
   * returns their UIDs.
   */
  List<String> createBatch(Op.CreatePods op) throws Exception {
    String template = op.podTemplatePath();
    boolean measured = measurement.measures(op.namespace());
    String[] uids = new String[op.count()];
    Parallel.forEach(
        op.count(),
        i -> {
          String body = podJson(template, i, op.namespace());
          long start = System.nanoTime();
          String uid = podCreates.create(op.namespace(), body).metadata().uid();
          uids[i] = uid;
          if (measured) {
            measurement.tracker().created(uid, start);
          }
        });
    return List.of(uids);
  }

  private String podJson(String template, int index, String namespace) {
    if (template == null) {
      Pod p = Nodes.basePod();
      p.getMetadata().setNamespace(namespace);
      return Serialization.asJson(p);
    }
    return templates.renderJson(template, Map.of("Index", index), Pod.class, namespace);
  }

  /**
   * What the bench reads of a created pod: its UID. The rest of the answer is skipped, not decoded
   * into a model (bench work on the measured CPU, not the scheduler's).
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record CreatedPod(Meta metadata) {
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Meta(String uid) {}
  }

  /**
   * Waits until every pod of the namespaces is scheduled: those the API server has (the pod watch
   * may not have seen the newest creates yet, and a barrier that counted only what it saw passed
   * before the scheduler had started on them).
   */
  private void barrier(List<String> ns) throws Exception {
    for (String n : ns.isEmpty() ? List.copyOf(podsPerNamespace.keySet()) : ns) {
      int stored = c.pods().inNamespace(n).list().getItems().size();
      awaitScheduled(n, Math.max(stored, watch.counts(n)[1]));
    }
  }

  /** Waits, woken by the pod watch, until {@code want} pods of the namespace have a node. */
  private void awaitScheduled(String ns, int want) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean quiet = measurement.measures(ns);
    if (!watch.awaitScheduled(
        ns,
        want,
        deadline,
        5_000_000_000L,
        got -> {
          if (!quiet) {
            progress.printf("%s: %d/%d pods scheduled%n", ns, got, want);
            progress.flush();
          }
        })) {
      throw new BenchTimeout(
          "namespace "
              + ns
              + ": "
              + watch.counts(ns)[0]
              + " of "
              + want
              + " pods scheduled after "
              + timeout);
    }
  }

  private void awaitBound(String ns, List<String> uids) throws Exception {
    if (!watch.awaitBound(uids, System.nanoTime() + timeout.toNanos())) {
      throw new BenchTimeout(
          "namespace "
              + ns
              + ": "
              + watch.boundOf(uids)
              + " of "
              + uids.size()
              + " pods scheduled after "
              + timeout);
    }
  }

  void ensureNamespace(String ns) {
    if (namespaces.add(ns)) {
      try {
        c.namespaces()
            .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
            .create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
  }

  private static String describe(Op op) {
    return switch (op) {
      case Op.CreateNodes n -> "createNodes " + n.count();
      case Op.CreateResourceDriver d -> "createResourceDriver " + d.nodes();
      case Op.CreateAny a ->
          "createAny "
              + a.templatePath()
              + (a.count() == null ? "" : " x" + a.count())
              + (a.namespace() == null ? "" : " in " + a.namespace());
      case Op.AllocResourceClaims a -> "allocResourceClaims in " + a.namespace();
      case Op.Barrier b ->
          "barrier " + (b.namespaces().isEmpty() ? "(all)" : String.join(",", b.namespaces()));
      case Op.Churn ch -> "churn " + ch.mode() + " " + String.join(",", ch.templatePaths());
      case Op.Sleep s -> "sleep " + s.duration().toMillis() + "ms";
      case Op.CreatePods p ->
          "createPods "
              + p.count()
              + " in "
              + p.namespace()
              + (p.steadyState() ? " (steady state " + p.duration().toSeconds() + "s)" : "");
      default -> op.getClass().getSimpleName();
    };
  }

  @Override
  public void close() {
    churns.forEach(Churn::stop);
  }

  /** The run gave up waiting; the end-state check says what was left undone. */
  static final class BenchTimeout extends Exception {
    BenchTimeout(String message) {
      super(message);
    }
  }
}
