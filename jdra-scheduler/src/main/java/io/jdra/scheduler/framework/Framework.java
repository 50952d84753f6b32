package io.jdra.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.runtime.Ctx;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One scheduling profile (upstream {@code frameworkImpl}): the plugins of each extension point in
 * order, with score weights, and the code that runs an extension point over them. Immutable after
 * construction and thread-safe as far as the plugins are.
 */
public final class Framework {
  private final String profileName;
  private final List<Plugin> plugins;
  private final Map<String, Integer> scoreWeights;
  private final Parallelizer parallelizer;
  private final List<PreEnqueuePlugin> preEnqueue = new ArrayList<>();
  private final QueueSortPlugin queueSort;
  private final List<PreFilterPlugin> preFilter = new ArrayList<>();
  private final List<FilterPlugin> filter = new ArrayList<>();
  private final List<PostFilterPlugin> postFilter = new ArrayList<>();
  private final List<ScorePlugin> score = new ArrayList<>();
  private final List<ReservePlugin> reserve = new ArrayList<>();
  private final List<PreBindPlugin> preBind = new ArrayList<>();
  private final List<BindPlugin> bind = new ArrayList<>();

  /**
   * @param plugins in extension-point order; exactly one must implement {@link QueueSortPlugin}
   * @param scoreWeights weight per score plugin name (default 1)
   */
  public Framework(
      String profileName,
      List<Plugin> plugins,
      Map<String, Integer> scoreWeights,
      Parallelizer parallelizer) {
    this.profileName = profileName;
    this.plugins = List.copyOf(plugins);
    this.scoreWeights = Map.copyOf(scoreWeights);
    this.parallelizer = parallelizer;
    QueueSortPlugin qs = null;
    for (Plugin p : plugins) {
      if (p instanceof QueueSortPlugin q) {
        if (qs != null) {
          throw new IllegalArgumentException(
              "profile " + profileName + ": only one queue sort plugin may be enabled");
        }
        qs = q;
      }
      add(p);
    }
    if (qs == null) {
      throw new IllegalArgumentException(
          "profile " + profileName + ": a queue sort plugin is required");
    }
    if (bind.isEmpty()) {
      throw new IllegalArgumentException("profile " + profileName + ": a bind plugin is required");
    }
    this.queueSort = qs;
  }

  private volatile PluginMetrics pluginMetrics = PluginMetrics.NONE;

  /** Where sampled plugin durations go (the scheduler's metrics); NONE by default. */
  public void setPluginMetrics(PluginMetrics m) {
    pluginMetrics = m;
  }

  /** A start time when this cycle records plugin metrics, else 0. */
  private static long start(CycleState state) {
    return state.recordPluginMetrics() ? System.nanoTime() : 0;
  }

  private void observe(long t0, String plugin, String point, Status s) {
    if (t0 != 0) {
      String status = s == null ? Status.Code.SUCCESS.upstreamName() : s.code().upstreamName();
      pluginMetrics.observe(plugin, point, status, System.nanoTime() - t0);
    }
  }

  private void add(Plugin p) {
    if (p instanceof PreEnqueuePlugin x) preEnqueue.add(x);
    if (p instanceof PreFilterPlugin x) preFilter.add(x);
    if (p instanceof FilterPlugin x) filter.add(x);
    if (p instanceof PostFilterPlugin x) postFilter.add(x);
    if (p instanceof ScorePlugin x) score.add(x);
    if (p instanceof ReservePlugin x) reserve.add(x);
    if (p instanceof PreBindPlugin x) preBind.add(x);
    if (p instanceof BindPlugin x) bind.add(x);
  }

  public String profileName() {
    return profileName;
  }

  public List<Plugin> plugins() {
    return plugins;
  }

  public Parallelizer parallelizer() {
    return parallelizer;
  }

  public QueueSortPlugin queueSort() {
    return queueSort;
  }

  public boolean hasPostFilterPlugins() {
    return !postFilter.isEmpty();
  }

  /** The first PreEnqueue plugin that does not let the pod in, as a status naming it. */
  public Status runPreEnqueuePlugins(Pod pod) {
    for (PreEnqueuePlugin p : preEnqueue) {
      Status s = p.preEnqueue(pod);
      if (!Status.ok(s)) {
        return s.withPlugin(p.name());
      }
    }
    return Status.success();
  }

  /**
   * Runs every PreFilter plugin; returns the first rejection (naming the plugin) or success with
   * the intersection of the node sets plugins asked for (null: all nodes).
   */
  public PreFilterPlugin.Result runPreFilterPlugins(
      Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    Set<String> names = null;
    for (PreFilterPlugin p : preFilter) {
      long t0 = start(state);
      PreFilterPlugin.Result r = p.preFilter(ctx, state, pod, nodes);
      Status s = r.status();
      observe(t0, p.name(), "PreFilter", s);
      if (s != null && s.isSkip()) {
        state.skipFilterPlugins().add(p.name());
        continue;
      }
      if (!Status.ok(s)) {
        return PreFilterPlugin.Result.of(s.withPlugin(p.name()));
      }
      if (r.nodeNames() != null) {
        if (names == null) {
          names = new HashSet<>(r.nodeNames());
        } else {
          names.retainAll(r.nodeNames());
        }
      }
    }
    state.filterPlugins = filterPluginsToRun(state.skipFilterPlugins());
    return new PreFilterPlugin.Result(Status.success(), names);
  }

  private FilterPlugin[] filterPluginsToRun(Set<String> skip) {
    List<FilterPlugin> out = new ArrayList<>(filter.size());
    for (FilterPlugin p : filter) {
      if (!skip.contains(p.name())) {
        out.add(p);
      }
    }
    return out.toArray(FilterPlugin[]::new);
  }

  /** The first Filter plugin that rejects the node (naming it), or success. Thread-safe. */
  public Status runFilterPlugins(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    FilterPlugin[] plugins = state.filterPlugins;
    if (plugins == null) {
      plugins = filterPluginsToRun(state.skipFilterPlugins()); // Filter without PreFilter (tests)
    }
    for (FilterPlugin p : plugins) {
      long t0 = start(state);
      Status s = p.filter(ctx, state, pod, node);
      observe(t0, p.name(), "Filter", s);
      if (!Status.ok(s)) {
        return s.withPlugin(p.name());
      }
    }
    return Status.success();
  }

  /** PostFilter plugins until one succeeds; the last rejection otherwise. */
  public Status runPostFilterPlugins(
      Ctx ctx, CycleState state, PodInfo pod, Map<String, Status> filtered) {
    Status last = Status.unschedulable();
    for (PostFilterPlugin p : postFilter) {
      long t0 = start(state);
      Status s = p.postFilter(ctx, state, pod, filtered);
      observe(t0, p.name(), "PostFilter", s);
      if (Status.ok(s)) {
        return Status.success().withPlugin(p.name());
      }
      if (s.isError()) {
        return s.withPlugin(p.name());
      }
      last = s.withPlugin(p.name());
    }
    return last;
  }

  /**
   * PreScore, Score, NormalizeScore and weights over the feasible nodes; the total per node in
   * their order, plus per plugin scores for logs.
   */
  public long[] runScorePlugins(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    long[] total = new long[nodes.size()];
    for (ScorePlugin p : score) {
      long t0 = start(state);
      Status pre = p.preScore(ctx, state, pod, nodes);
      observe(t0, p.name(), "PreScore", pre);
      if (pre != null && pre.isSkip()) {
        continue;
      }
      long[] s = new long[nodes.size()];
      t0 = start(state);
      for (int i = 0; i < s.length; i++) {
        s[i] = p.score(ctx, state, pod, nodes.get(i));
      }
      observe(t0, p.name(), "Score", null);
      p.normalizeScore(state, pod, s);
      int w = scoreWeights.getOrDefault(p.name(), 1);
      for (int i = 0; i < s.length; i++) {
        total[i] += s[i] * w;
      }
    }
    return total;
  }

  /** The explanations of plugins that can give one (jdra addition), joined by "; ". */
  public String explainFailure(CycleState state, PodInfo pod) {
    StringBuilder sb = new StringBuilder();
    for (Plugin p : plugins) {
      if (p instanceof ExplainsFailure e) {
        String s = e.explainFailure(state, pod);
        if (s != null && !s.isEmpty()) {
          sb.append(sb.isEmpty() ? "" : "; ").append(s);
        }
      }
    }
    return sb.toString();
  }

  public boolean hasScorePlugins() {
    return !score.isEmpty();
  }

  /** Reserve in order; on the first failure the caller runs {@link #runUnreservePlugins}. */
  public Status runReservePlugins(Ctx ctx, CycleState state, PodInfo pod, String node) {
    for (ReservePlugin p : reserve) {
      long t0 = start(state);
      Status s = p.reserve(ctx, state, pod, node);
      observe(t0, p.name(), "Reserve", s);
      if (!Status.ok(s)) {
        return s.withPlugin(p.name());
      }
    }
    return Status.success();
  }

  /** Unreserve in reverse order, every plugin. */
  public void runUnreservePlugins(Ctx ctx, CycleState state, PodInfo pod, String node) {
    for (int i = reserve.size() - 1; i >= 0; i--) {
      reserve.get(i).unreserve(ctx, state, pod, node);
    }
  }

  public Status runPreBindPlugins(Ctx ctx, CycleState state, PodInfo pod, String node) {
    for (PreBindPlugin p : preBind) {
      Status pre = p.preBindPreFlight(ctx, state, pod, node);
      if (pre != null && pre.isSkip()) {
        continue;
      }
      if (!Status.ok(pre)) {
        return pre.withPlugin(p.name());
      }
      long t0 = start(state);
      Status s = p.preBind(ctx, state, pod, node);
      observe(t0, p.name(), "PreBind", s);
      if (!Status.ok(s)) {
        return s.withPlugin(p.name());
      }
    }
    return Status.success();
  }

  public Status runBindPlugins(Ctx ctx, CycleState state, PodInfo pod, String node) {
    for (BindPlugin p : bind) {
      long t0 = start(state);
      Status s = p.bind(ctx, state, pod, node);
      observe(t0, p.name(), "Bind", s);
      if (s != null && s.isSkip()) {
        continue;
      }
      return Status.ok(s) ? Status.success() : s.withPlugin(p.name());
    }
    return Status.error("no bind plugin bound the pod").withPlugin("");
  }

  /**
   * Events per plugin for requeueing. Plugins that can reject a pod but register nothing get the
   * wildcard, as upstream.
   */
  public Map<String, List<QueueingHint.EventWithHint>> eventsToRegister() {
    Map<String, List<QueueingHint.EventWithHint>> out = new LinkedHashMap<>();
    for (Plugin p : plugins) {
      if (p instanceof EnqueueExtensions e) {
        out.put(p.name(), List.copyOf(e.eventsToRegister()));
      } else if (p instanceof PreEnqueuePlugin
          || p instanceof PreFilterPlugin
          || p instanceof FilterPlugin
          || p instanceof ReservePlugin
          || p instanceof PreBindPlugin) {
        out.put(
            p.name(), List.of(new QueueingHint.EventWithHint(ClusterEvent.FORCE_ACTIVATE, null)));
      }
    }
    return out;
  }
}
