// End-to-end check of the web view in headless Chromium, driven by
// internal/command's TestWebViewInBrowser, which starts terrane serve with
// a reconciler and real providers. Protocol on stdout: this script prints
// "waiting-for-drift" once the page shows the workspace in sync; the Go
// test then changes an object behind Terrane's back, and this script waits
// for the page to show it Drifted without reloading. Then it prints
// "waiting-for-apply"; the Go test starts an apply whose slow instance
// the page must show as a run in progress, then done.
//
// Environment: TERRANE_URL (the web view), TERRANE_TOKEN (full access),
// TERRANE_OTHER_TOKEN (a token for another tenancy), CHROMIUM (binary);
// TERRANE_SCREENSHOT, when set, is where to save the page once it shows
// the drift.
import { chromium } from "playwright-core";

const url = process.env.TERRANE_URL;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  // Playwright gives every launch a fresh, empty user data directory.
});

function fail(message) {
  console.error(message);
  process.exitCode = 1;
}

try {
  const page = await browser.newPage();
  page.on("console", (m) => console.error(`page: ${m.text()}`));
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(`${url}?token=${encodeURIComponent(process.env.TERRANE_TOKEN)}`);
  if (page.url().includes("token=")) fail(`the token stayed in the address bar: ${page.url()}`);
  await page.waitForSelector('[data-testid="connection"]:text("live")', { timeout: 30000 });
  const web = '[data-address="tpf_thing.web"]';
  await page.waitForSelector(`${web}[data-condition="InSync"]`, { timeout: 60000 });
  await page.waitForSelector('[data-address="tpf_thing.db"][data-condition="InSync"]', { timeout: 60000 });
  await page.waitForSelector('[data-testid="graph"] [data-node="tpf_thing.db"]');

  await page.click(web);
  const attributes = await page.textContent('[data-testid="attributes"]', { timeout: 10000 });
  if (attributes.includes("hunter2")) fail("the page shows a sensitive value");
  if (!attributes.includes("(sensitive value)")) fail(`the sensitive attribute is not marked hidden: ${attributes}`);

  const loadsBefore = loads;
  console.log("waiting-for-drift");
  await page.waitForSelector(`${web}[data-condition="Drifted"]`, { timeout: 90000 });
  const reason = await page.textContent(`${web} td:nth-child(3)`);
  if (!reason.includes("ChangedOutsideTerrane")) fail(`the Drifted row's reason is ${reason}`);
  const detail = await page.textContent('[data-testid="detail"]');
  if (!detail.includes("description")) fail(`the detail does not name the drifted attribute: ${detail}`);
  if (loads !== loadsBefore) fail("the page reloaded to show the change");
  if (process.env.TERRANE_SCREENSHOT) await page.screenshot({ path: process.env.TERRANE_SCREENSHOT, fullPage: true });
  console.log("saw-drift");

  // An apply started from the CLI shows as a run in progress, with the
  // instance it is applying in flight, until every instance is done; the
  // applied instance's new Generation joins its history.
  const historyBefore = await page.locator('[data-testid="history"] tr').count();
  console.log("waiting-for-apply");
  const run = page.locator('[data-testid="runs"] [data-run]', { hasText: "tpf_thing.slow" });
  await run.waitFor({ timeout: 60000 });
  const runText = await run.textContent();
  if (!/apply .* — \d+ of \d+ done/.test(runText) || !runText.includes("In flight:")) fail(`the run in progress reads ${runText}`);
  const runID = await run.getAttribute("data-run");
  await page.waitForFunction((id) => {
    const el = document.querySelector(`[data-run="${id}"]`);
    const m = el?.textContent?.match(/(\d+) of (\d+) done/);
    return m && m[1] === m[2] && !el.textContent.includes("In flight");
  }, runID, { timeout: 60000 });
  await page.waitForSelector(`${web}[data-condition="InSync"]`, { timeout: 60000 });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="history"] tr').length > n, historyBefore, { timeout: 30000 });
  if (loads !== loadsBefore) fail("the page reloaded to show the apply");
  console.log("saw-apply");

  // A token for another tenancy sees nothing of this one.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(`${url}?token=${encodeURIComponent(process.env.TERRANE_OTHER_TOKEN)}`);
  await otherPage.waitForSelector('[data-testid="connection"]:text("live")', { timeout: 30000 });
  await otherPage.waitForSelector('[data-testid="no-workspaces"]', { timeout: 10000 });
  if ((await otherPage.locator("[data-address]").count()) !== 0) fail("another tenancy's token sees resource instances");
  const history = await otherPage.request.get(`${url}api/history?project=default&workspace=default&name=tpf_thing.web`);
  if (history.status() !== 403) fail(`another tenancy's token read history: HTTP ${history.status()}`);
  // And no token at all gets nothing.
  const anonymous = await browser.newContext();
  const response = await (await anonymous.newPage()).goto(url);
  if (response.status() !== 401) fail(`without a token the page answered HTTP ${response.status()}`);
  console.log("other-tenancy-sees-nothing");
} catch (err) {
  fail(String(err?.stack ?? err));
} finally {
  await browser.close();
}
