package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pagination while another client keeps writing: the pages together are exactly the state at the
 * first page's resourceVersion, as an unpaged Exact list at that version shows it.
 */
class ConcurrentPagingTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static ConfigMap cm(String ns, String name, int v) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(ns)
        .endMetadata()
        .addToData("v", Integer.toString(v))
        .build();
  }

  static Stream<Arguments> pageSizes() {
    return Stream.of(Arguments.of(1), Arguments.of(3), Arguments.of(7));
  }

  @ParameterizedTest(name = "limit {0}")
  @MethodSource("pageSizes")
  void pagesAreOneSnapshotWhileWritesGoOn(int limit) throws Exception {
    String ns = "busy" + limit;
    f.client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    var cms = f.client.configMaps().inNamespace(ns);
    for (int i = 0; i < 20; i++) {
      cms.resource(cm(ns, String.format("c%02d", i), 0)).create();
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger writes = new AtomicInteger();
    Thread writer =
        new Thread(() -> {
          Random rnd = new Random(limit);
          while (!stop.get()) {
            String name = String.format("c%02d", rnd.nextInt(25));
            int v = writes.incrementAndGet();
            try {
              if (cms.withName(name).get() == null) {
                cms.resource(cm(ns, name, v)).create();
              } else if (v % 4 == 0) {
                cms.withName(name).delete();
              } else {
                cms.resource(cm(ns, name, v)).update();
              }
            } catch (RuntimeException e) {
              // a race with our own previous write (409/404) is fine: keep writing
            }
          }
        });
    writer.start();
    try {
      List<String> paged = new ArrayList<>();
      String rv = null;
      String cont = null;
      int writesAtFirstPage = 0;
      do {
        ConfigMapList page =
            cms.list(new ListOptionsBuilder().withLimit((long) limit).withContinue(cont).build());
        if (rv == null) {
          rv = page.getMetadata().getResourceVersion();
          writesAtFirstPage = writes.get();
        }
        assertThat(page.getMetadata().getResourceVersion()).isEqualTo(rv);
        for (ConfigMap c : page.getItems()) {
          assertThat(Long.parseLong(c.getMetadata().getResourceVersion()))
              .isLessThanOrEqualTo(Long.parseLong(rv));
          paged.add(c.getMetadata().getName() + "=" + c.getData().get("v"));
        }
        cont = page.getMetadata().getContinue();
        // Let the writer change things between every two pages.
        int before = writes.get();
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(10))
            .until(() -> writes.get() > before + 2);
      } while (cont != null && !cont.isEmpty());
      assertThat(writes.get()).as("writes during pagination").isGreaterThan(writesAtFirstPage);
      List<String> exact = new ArrayList<>();
      cms.list(
              new ListOptionsBuilder()
                  .withResourceVersion(rv)
                  .withResourceVersionMatch("Exact")
                  .build())
          .getItems()
          .forEach(c -> exact.add(c.getMetadata().getName() + "=" + c.getData().get("v")));
      assertThat(paged).doesNotHaveDuplicates().isSorted().containsExactlyElementsOf(exact);
    } finally {
      stop.set(true);
      writer.join();
    }
  }
}
