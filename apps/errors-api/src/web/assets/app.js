// Trove errors dashboard: the little that needs script. Every page reads fully without it.
(() => {
  // Copy buttons: copy the text of the element their data-copy selector names.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const target = document.querySelector(button.dataset.copy);
      if (!target) return;
      await navigator.clipboard.writeText(target.textContent.trim());
      button.textContent = 'Copied';
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 1500);
    });
  }
  // Buttons that destroy or disrupt ask first.
  for (const button of document.querySelectorAll('button[data-confirm]')) {
    button.addEventListener('click', (event) => {
      if (!window.confirm(button.dataset.confirm)) event.preventDefault();
    });
  }

  const project = document.body.dataset.liveProject;
  if (!project) return;
  const issueId = document.body.dataset.liveIssue;
  const status = document.querySelector('.live-status');
  const say = (text) => {
    status.hidden = false;
    status.textContent = text;
  };

  function setCell(root, field, issue) {
    const cell = root.querySelector(`[data-field="${field}"]`);
    if (!cell) return;
    if (field === 'status') {
      const badge = document.createElement('span');
      badge.className = `badge status-${issue.status}`;
      badge.textContent = issue.status;
      cell.replaceChildren(badge);
    } else if (field === 'count') {
      cell.textContent = Number(issue.count).toLocaleString('en-US');
    } else if (field === 'last_seen') {
      const time = document.createElement('time');
      time.dateTime = issue.last_seen;
      time.title = issue.last_seen;
      time.textContent = 'just now';
      cell.replaceChildren(time);
    }
  }

  function newRow(issue) {
    const row = document.createElement('tr');
    row.dataset.issueId = issue.id;
    row.className = 'fresh';
    const title = document.createElement('td');
    title.className = 'title';
    const level = document.createElement('span');
    level.className = `level level-${issue.level}`;
    level.textContent = issue.level;
    const link = document.createElement('a');
    link.href = `/issues/${issue.id}`;
    link.textContent = issue.title;
    title.append(level, link);
    if (issue.culprit) {
      const culprit = document.createElement('div');
      culprit.className = 'culprit';
      culprit.textContent = issue.culprit;
      title.append(culprit);
    }
    const cells = ['status', 'count', 'users', 'last_seen'].map((field) => {
      const cell = document.createElement('td');
      if (field === 'users') cell.textContent = '';
      else cell.dataset.field = field;
      if (field === 'count' || field === 'users') cell.className = 'num';
      return cell;
    });
    const spark = document.createElement('td');
    spark.className = 'spark';
    row.append(title, ...cells, spark);
    for (const field of ['status', 'count', 'last_seen']) setCell(row, field, issue);
    return row;
  }

  function onIssue(type, issue) {
    if (issue.project !== project) return;
    if (issueId) {
      if (issue.id !== issueId) return;
      for (const field of ['status', 'count', 'last_seen']) setCell(document, field, issue);
      say(`This issue changed: ${issue.status}, ${issue.count} events.`);
      return;
    }
    const rows = document.getElementById('issue-rows');
    if (!rows) return;
    const existing = rows.querySelector(`tr[data-issue-id="${CSS.escape(issue.id)}"]`);
    if (existing) {
      for (const field of ['status', 'count', 'last_seen']) setCell(existing, field, issue);
      existing.classList.remove('fresh');
      void existing.offsetWidth;
      existing.classList.add('fresh');
    } else if (type === 'IssueCreated' || issue.status === 'unresolved') {
      rows.querySelector('tr.empty')?.remove();
      rows.prepend(newRow(issue));
      say(`New issue: ${issue.title}`);
    }
  }

  let delay = 1000;
  function connect() {
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/0/ws`);
    socket.addEventListener('open', () => {
      delay = 1000;
    });
    socket.addEventListener('message', (message) => {
      const data = JSON.parse(message.data);
      if (data.type === 'Ready') document.body.dataset.live = 'ready';
      else if (data.issue) onIssue(data.type, data.issue);
    });
    socket.addEventListener('close', () => {
      document.body.dataset.live = 'closed';
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
})();
