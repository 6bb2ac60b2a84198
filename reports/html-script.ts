// The only script of report.html: a Copy button on every curl block. It carries no data (the
// report's content is all in the markup), and the page's Content-Security-Policy admits this
// script by its hash and nothing else. Its last act marks <body data-script="ready">, which the
// rendering test looks for: an error anywhere above it would leave the mark out.
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  function selectText(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  function copied(button, label) {
    button.textContent = label;
    window.setTimeout(function () { button.textContent = 'Copy'; }, 1500);
  }
  var blocks = document.querySelectorAll('pre.curl');
  for (var i = 0; i < blocks.length; i++) {
    (function (block) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy the curl command');
      button.addEventListener('click', function () {
        var text = block.textContent || '';
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(function () { copied(button, 'Copied'); }, function () { selectText(block); copied(button, 'Selected: press Ctrl+C'); });
        } else {
          selectText(block);
          copied(button, document.execCommand && document.execCommand('copy') ? 'Copied' : 'Selected: press Ctrl+C');
        }
      });
      block.parentNode.insertBefore(button, block);
    })(blocks[i]);
  }
  document.body.setAttribute('data-script', 'ready');
})();
`;
