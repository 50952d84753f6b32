package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * events.k8s.io/v1 and core/v1 Events are one storage, as upstream: an event written through one
 * API is read, selected and printed through the other (kubectl get events and kubectl describe read
 * core/v1 while the components write events.k8s.io/v1).
 */
class EventStorageTest {
  static ServerFixture f;

  private static final String CORE = "/api/v1/namespaces/default/events";
  private static final String GROUP = "/apis/events.k8s.io/v1/namespaces/default/events";
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
    HttpResponse<String> created =
        f.raw(
            "POST",
            GROUP,
            "application/json",
            "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\","
                + "\"metadata\":{\"name\":\"pod0.1\",\"namespace\":\"default\"},"
                + "\"eventTime\":\"2026-11-26T08:00:00.000000Z\","
                + "\"reportingController\":\"default-scheduler\","
                + "\"reportingInstance\":\"default-scheduler-host\",\"action\":\"Binding\","
                + "\"reason\":\"Scheduled\",\"type\":\"Normal\","
                + "\"regarding\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"pod0\","
                + "\"uid\":\"u-1\",\"apiVersion\":\"v1\"},"
                + "\"note\":\"Successfully assigned default/pod0 to node-1\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> core =
        f.raw(
            "POST",
            CORE,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Event\","
                + "\"metadata\":{\"name\":\"pod1.1\",\"namespace\":\"default\"},"
                + "\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"default\",\"name\":\"pod1\"},"
                + "\"reason\":\"Started\",\"message\":\"Started container ctr0\",\"type\":\"Normal\","
                + "\"source\":{\"component\":\"kubelet\",\"host\":\"node-1\"},\"count\":3,"
                + "\"firstTimestamp\":\"2026-11-26T08:00:00Z\","
                + "\"lastTimestamp\":\"2026-11-26T08:00:05Z\"}");
    assertThat(core.statusCode()).as(core.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  @Test
  void anEventsGroupEventIsACoreEvent() {
    String body = f.get(CORE + "/pod0.1", null).body();
    assertThat(body)
        .contains("\"apiVersion\":\"v1\"")
        .contains("\"involvedObject\":{\"kind\":\"Pod\"")
        .contains("\"message\":\"Successfully assigned default/pod0 to node-1\"")
        .contains("\"reportingComponent\":\"default-scheduler\"")
        .doesNotContain("\"regarding\":{")
        .doesNotContain("\"note\"");
  }

  @Test
  void aCoreEventIsAnEventsGroupEvent() {
    String body = f.get(GROUP + "/pod1.1", null).body();
    assertThat(body)
        .contains("\"apiVersion\":\"events.k8s.io/v1\"")
        .contains("\"regarding\":{\"kind\":\"Pod\"")
        .contains("\"note\":\"Started container ctr0\"")
        .contains("\"deprecatedSource\":{\"component\":\"kubelet\",\"host\":\"node-1\"}")
        .contains("\"deprecatedCount\":3")
        .doesNotContain("\"involvedObject\":{");
  }

  @Test
  void bothListsHoldBothEvents() {
    assertThat(f.get(CORE, null).body()).contains("pod0.1").contains("pod1.1");
    assertThat(f.get(GROUP, null).body()).contains("pod0.1").contains("pod1.1");
  }

  @Test
  void fieldSelectorsUseEachApisNames() {
    String core = f.get(CORE + "?fieldSelector=involvedObject.name%3Dpod0", null).body();
    assertThat(core).contains("pod0.1").doesNotContain("pod1.1");
    String group = f.get(GROUP + "?fieldSelector=regarding.name%3Dpod1", null).body();
    assertThat(group).contains("pod1.1").doesNotContain("pod0.1");
    String byController =
        f.get(GROUP + "?fieldSelector=reportingController%3Ddefault-scheduler", null).body();
    assertThat(byController).contains("pod0.1").doesNotContain("pod1.1");
    String bySource = f.get(CORE + "?fieldSelector=source%3Dkubelet", null).body();
    assertThat(bySource).contains("pod1.1").doesNotContain("pod0.1");
    assertThat(f.get(GROUP + "?fieldSelector=involvedObject.name%3Dpod0", null).statusCode())
        .isEqualTo(400);
  }

  @Test
  void tablesHaveUpstreamsEventColumnsInBothGroups() {
    for (String path : new String[] {CORE, GROUP}) {
      String table = f.get(path, TABLE).body();
      assertThat(table)
          .as(path)
          .contains("\"name\":\"Last seen\"")
          .contains("\"name\":\"Object\"")
          .contains("\"name\":\"Message\"")
          .doesNotContain("\"name\":\"Age\"")
          .contains("\"pod/pod0\"")
          .contains("\"Successfully assigned default/pod0 to node-1\"")
          .contains("\"kubelet, node-1\"")
          .contains("\"default-scheduler, default-scheduler-host\"");
    }
  }
}
