// The portal's barcode box: where the browser has BarcodeDetector (Chrome on Android, for one),
// a button scans with the camera and submits the code; everywhere else the code is typed.
(function () {
  const button = document.getElementById("scan-barcode");
  const video = document.getElementById("barcode-video");
  const input = document.getElementById("barcode");
  if (!button || !video || !input || !("BarcodeDetector" in window) || !navigator.mediaDevices) return;
  button.hidden = false;
  button.addEventListener("click", async function () {
    let stream;
    try {
      const detector = new BarcodeDetector({ formats: ["ean_13", "upc_a", "ean_8"] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      video.srcObject = stream;
      video.hidden = false;
      await video.play();
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline) {
        const codes = await detector.detect(video);
        if (codes.length > 0) {
          input.value = codes[0].rawValue;
          input.form.submit();
          return;
        }
        await new Promise(function (resolve) { setTimeout(resolve, 200); });
      }
    } catch (error) {
      button.textContent = "The camera is not available: type the code";
    } finally {
      if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
      video.hidden = true;
    }
  });
})();
